// Support requests: a driver's own, and the staff inbox by status.
import type { SupportStatus } from '@blockcatch/sdk';
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const supportQueries = {
  mine: () =>
    queryOptions({
      queryKey: ['driver', 'support'],
      queryFn: () => gateway.driver.supportRequests(),
    }),
  inbox: (status: SupportStatus) =>
    queryOptions({
      queryKey: ['admin', 'support', status],
      queryFn: () => gateway.admin.supportInbox(status),
    }),
};
