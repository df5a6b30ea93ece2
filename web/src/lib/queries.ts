// The queryOptions more than one feature reads; each feature keeps its own in its `queries.ts`.
// Keys start with the area a mutation invalidates: ['driver'] after a status switch, a settings
// save or a payment, ['admin'] after a send, so one invalidation reaches every feature's entry.
// The cache is cleared at sign-out (useAuth), so another account never sees these answers.
import type { Product, UserRow } from '@blockcatch/sdk';
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../sdk.js';
import { loadBilling } from './billing-days.js';

export const driverQueries = {
  all: ['driver'] as const,
  calendar: () =>
    queryOptions({ queryKey: ['driver', 'calendar'], queryFn: () => gateway.driver.calendar() }),
};

export const platformQueries = {
  serviceAreas: () =>
    queryOptions({
      queryKey: ['platform', 'serviceAreas'],
      queryFn: () => gateway.platform.serviceAreas(),
      staleTime: 10 * 60_000,
    }),
};

export const billingQueries = {
  summary: () =>
    queryOptions({ queryKey: ['billing', 'summary'], queryFn: () => gateway.payments.billing() }),
};

const APPROVALS_POLL_MS = 30_000;

export const adminQueries = {
  all: ['admin'] as const,
  /** The Flex table with its Flex-only fields (region); the same cache entry as users('flex'). */
  flexUsers: () =>
    queryOptions({ queryKey: ['admin', 'users', 'flex'], queryFn: () => gateway.flex.users() }),
  users: (product: Product) =>
    queryOptions<UserRow[]>({
      queryKey: ['admin', 'users', product],
      queryFn: () => (product === 'flex' ? gateway.flex.users() : gateway.spark.users()),
    }),
  invitations: () =>
    queryOptions({ queryKey: ['admin', 'invitations'], queryFn: () => gateway.invitations() }),
  referrals: () =>
    queryOptions({ queryKey: ['admin', 'referrals'], queryFn: () => gateway.referrals() }),
  templates: () =>
    queryOptions({ queryKey: ['admin', 'templates'], queryFn: () => gateway.templates() }),
  billing: (from: string, to: string) =>
    queryOptions({
      queryKey: ['admin', 'billing', from, to],
      queryFn: () => loadBilling(from, to),
    }),
  /** Sends waiting for a second admin; asked again every half minute, so approvers hear of new ones. */
  approvals: () =>
    queryOptions({
      queryKey: ['admin', 'approvals'],
      queryFn: () => gateway.approvals.list(),
      refetchInterval: APPROVALS_POLL_MS,
    }),
};
