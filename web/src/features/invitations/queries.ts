// The invitations a driver has sent.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const invitationQueries = {
  mine: () =>
    queryOptions({
      queryKey: ['driver', 'invitations'],
      queryFn: () => gateway.driver.invitations(),
    }),
};
