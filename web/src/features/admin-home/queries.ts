// The admin home's figures that no other screen reads.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const adminHomeQueries = {
  /** Invitation texts kept for a later hour by the service's hourly total. */
  invitationBacklog: () =>
    queryOptions({
      queryKey: ['admin', 'invitationBacklog'],
      queryFn: () => gateway.invitationBacklog(),
    }),
};
