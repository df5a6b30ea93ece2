// One queryOptions per SDK resource the screens read, keyed so that a mutation invalidates what
// it changed: ['driver'] after a status switch, a settings save or a payment, ['admin'] after a
// send. The cache is cleared at sign-out (useAuth), so another account never sees these answers.
import type { OfferKind, Product, SupportStatus, UserRow } from '@blockcatch/sdk';
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../sdk.js';
import { loadBilling } from './admin/adminApi.js';
import { jobsRefetchInterval } from './admin/send-jobs.js';

/** How many recent send jobs the admin screens list. */
const RECENT_SEND_JOBS = 10;
/** How many recipients of a job are read to explain its failures. */
export const REPORT_RECIPIENTS = 1000;

export const driverQueries = {
  all: ['driver'] as const,
  dashboard: () =>
    queryOptions({ queryKey: ['driver', 'dashboard'], queryFn: () => gateway.driver.dashboard() }),
  outcomes: () =>
    queryOptions({ queryKey: ['driver', 'outcomes'], queryFn: () => gateway.driver.outcomes() }),
  offers: (kind: OfferKind) =>
    queryOptions({
      queryKey: ['driver', 'offers', kind],
      queryFn: () => gateway.driver.offers({ kind, limit: 20 }),
    }),
  calendar: () =>
    queryOptions({ queryKey: ['driver', 'calendar'], queryFn: () => gateway.driver.calendar() }),
  latency: () =>
    queryOptions({ queryKey: ['driver', 'latency'], queryFn: () => gateway.driver.latency() }),
  settings: () =>
    queryOptions({ queryKey: ['driver', 'settings'], queryFn: () => gateway.driver.settings() }),
  alerts: () =>
    queryOptions({
      queryKey: ['driver', 'alerts'],
      queryFn: () => gateway.driver.alertSettings(),
    }),
  marketingConsent: () =>
    queryOptions({
      queryKey: ['driver', 'marketing-consent'],
      queryFn: () => gateway.driver.marketingConsent(),
    }),
  support: () =>
    queryOptions({
      queryKey: ['driver', 'support'],
      queryFn: () => gateway.driver.supportRequests(),
    }),
  invitations: () =>
    queryOptions({
      queryKey: ['driver', 'invitations'],
      queryFn: () => gateway.driver.invitations(),
    }),
  reseller: () =>
    queryOptions({
      queryKey: ['driver', 'reseller'],
      queryFn: () => gateway.driver.reseller(),
      // A refusal (not a reseller) is an answer, not a hiccup to retry.
      retry: false,
    }),
};

export const platformQueries = {
  serviceAreas: () =>
    queryOptions({
      queryKey: ['platform', 'serviceAreas'],
      queryFn: () => gateway.platform.serviceAreas(),
      staleTime: 10 * 60_000,
    }),
};

export const paymentQueries = {
  price: () =>
    queryOptions({ queryKey: ['payments', 'price'], queryFn: () => gateway.payments.price() }),
};

export const billingQueries = {
  all: ['billing'] as const,
  summary: () =>
    queryOptions({ queryKey: ['billing', 'summary'], queryFn: () => gateway.payments.billing() }),
  overview: () =>
    queryOptions({
      queryKey: ['admin', 'billing', 'overview'],
      queryFn: () => gateway.admin.billingOverview(),
    }),
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
  supportInbox: (status: SupportStatus) =>
    queryOptions({
      queryKey: ['admin', 'support', status],
      queryFn: () => gateway.admin.supportInbox(status),
    }),
  /** Invitation texts kept for a later hour by the service's hourly total. */
  invitationBacklog: () =>
    queryOptions({
      queryKey: ['admin', 'invitationBacklog'],
      queryFn: () => gateway.invitationBacklog(),
    }),
  referrals: () =>
    queryOptions({ queryKey: ['admin', 'referrals'], queryFn: () => gateway.referrals() }),
  templates: () =>
    queryOptions({ queryKey: ['admin', 'templates'], queryFn: () => gateway.templates() }),
  billing: (from: string, to: string) =>
    queryOptions({
      queryKey: ['admin', 'billing', from, to],
      queryFn: () => loadBilling(from, to),
    }),
  /** Tokens for machines: the admin's own, or everyone's for the owner. */
  apiTokens: () =>
    queryOptions({ queryKey: ['admin', 'apiTokens'], queryFn: () => gateway.apiTokens.list() }),
  /** Listed by the gateway (every admin's sends), asked again while one is sending or due. */
  sendJobs: () =>
    queryOptions({
      queryKey: ['admin', 'sendJobs'],
      queryFn: () => gateway.sends.list({ limit: RECENT_SEND_JOBS }),
      refetchInterval: (query) => jobsRefetchInterval(query.state.data, Date.now()),
    }),
  /** Sends waiting for a second admin; asked again every half minute, so approvers hear of new ones. */
  approvals: () =>
    queryOptions({
      queryKey: ['admin', 'approvals'],
      queryFn: () => gateway.approvals.list(),
      refetchInterval: APPROVALS_POLL_MS,
    }),
  /** Every admin and whether they may approve sends (owners only). */
  approvers: () =>
    queryOptions({
      queryKey: ['admin', 'approvals', 'approvers'],
      queryFn: () => gateway.approvals.approvers(),
    }),
  /** A job's first recipients with their errors, to say why some were not delivered. */
  sendJobReport: (id: string, version: string) =>
    queryOptions({
      queryKey: ['admin', 'sendJobs', id, version],
      queryFn: () => gateway.sends.show(id, { limit: REPORT_RECIPIENTS }),
    }),
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
  userCalendar: (phoneNumber: string) =>
    queryOptions({
      queryKey: ['admin', 'userCalendar', phoneNumber],
      queryFn: () => gateway.admin.userCalendar(phoneNumber),
    }),
};
