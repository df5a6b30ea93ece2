// One driver as staff see them: dashboard, reaction time and outcomes; and who is an admin (owners).
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const userQueries = {
  userDashboard: (id: string) =>
    queryOptions({
      queryKey: ['admin', 'userDashboard', id],
      queryFn: () => gateway.admin.userDashboard(id),
    }),
  userLatency: (phoneNumber: string) =>
    queryOptions({
      queryKey: ['admin', 'userLatency', phoneNumber],
      queryFn: () => gateway.admin.userLatency(phoneNumber),
    }),
  userOutcomes: (phoneNumber: string) =>
    queryOptions({
      queryKey: ['admin', 'userOutcomes', phoneNumber],
      queryFn: () => gateway.admin.userOutcomes(phoneNumber),
    }),
  /** Every admin, owners first: whether a user is one (owners only). */
  admins: () =>
    queryOptions({
      queryKey: ['admin', 'admins'],
      queryFn: () => gateway.approvals.approvers(),
    }),
};
