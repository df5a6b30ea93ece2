// The driver endpoints of packages/gateway/API.md: connecting the delivery-platform account,
// filters, the system switch, "I've arrived", what the catcher did, payments and invitations.
import { z } from 'zod';
import {
  type CreatePaymentRequest,
  driverInvitationsResponseSchema,
  invitationResponseSchema,
  paymentResponseSchema,
  priceResponseSchema,
  resellerResponseSchema,
} from '../../core/schemas/billing.js';
import { type DriverFilters, driverFiltersSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

const BASE = '/api/flex/v1';

/**
 * `GatewayRequest.method` is typed GET | POST while settings and status are PUT and the platform
 * link is DELETE; the transport sends any verb. Widen the type in client.ts and drop these.
 */
type Verb = 'GET' | 'POST';
const PUT = 'PUT' as Verb;
const DELETE = 'DELETE' as Verb;

export const serviceAreaSchema = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
});
export type ServiceArea = z.infer<typeof serviceAreaSchema>;

export const platformChallengeSchema = z.object({ challengeId: z.string(), sentTo: z.string() });
export type PlatformChallenge = z.infer<typeof platformChallengeSchema>;

export const offerKindSchema = z.enum(['won', 'disliked', 'gone']);
export type OfferKind = z.infer<typeof offerKindSchema>;

export const offerRecordSchema = z.object({
  offerId: z.string(),
  kind: offerKindSchema,
  /** The matcher's refusal for disliked offers, else null. */
  reason: z.string().nullable(),
  serviceAreaId: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  pay: z.number(),
  seenAt: z.number(),
});
export type OfferRecord = z.infer<typeof offerRecordSchema>;

export const driverDashboardSchema = z.object({
  status: z.enum(['start', 'stop']),
  systemOn: z.boolean(),
  searching: z.boolean(),
  notSearchingBecause: z
    .enum(['not-connected', 'setup-incomplete', 'not-in-good-standing', 'starting'])
    .nullable(),
  offers: z.object({ won: z.number(), disliked: z.number(), gone: z.number() }),
  proxyInstalled: z.boolean(),
  setupComplete: z.boolean(),
  goodStanding: z.boolean(),
  expirationDateTimestamp: z.number().nullable(),
  expired: z.boolean(),
  expiringSoon: z.boolean(),
});
export type DriverDashboard = z.infer<typeof driverDashboardSchema>;

export const driverCalendarSchema = z.object({
  timeZone: z.string(),
  from: z.number(),
  to: z.number(),
  Items: z.array(offerRecordSchema),
});
export type DriverCalendar = z.infer<typeof driverCalendarSchema>;

const withOptions = (options?: RequestOptions) => (options ? { options } : {});

export function driverResource(http: Requester) {
  return {
    async connectPlatform(email: string, password: string, options?: RequestOptions) {
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/platform/sign-in`,
        body: { email, password },
        schema: platformChallengeSchema,
        ...withOptions(options),
      });
      return response.data;
    },
    async verifyPlatform(challengeId: string, code: string, options?: RequestOptions) {
      await http.request({
        method: 'POST',
        path: `${BASE}/platform/verify`,
        body: { challengeId, code },
        schema: z.object({ proxyInstalled: z.boolean() }),
        ...withOptions(options),
      });
    },
    async disconnectPlatform(options?: RequestOptions) {
      await http.request({
        method: DELETE,
        path: `${BASE}/platform`,
        schema: z.object({ proxyInstalled: z.boolean() }),
        ...withOptions(options),
      });
    },
    async serviceAreas(options?: RequestOptions): Promise<ServiceArea[]> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/service-areas`,
        schema: z.object({ Items: z.array(serviceAreaSchema) }),
        ...withOptions(options),
      });
      return response.data.Items;
    },
    async settings(options?: RequestOptions): Promise<DriverFilters | null> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/settings`,
        schema: z.object({ Item: driverFiltersSchema.nullable(), setupComplete: z.boolean() }),
        ...withOptions(options),
      });
      return response.data.Item;
    },
    async saveSettings(filters: DriverFilters, options?: RequestOptions) {
      const response = await http.request({
        method: PUT,
        path: `${BASE}/settings`,
        body: filters,
        schema: z.object({ Item: driverFiltersSchema, setupComplete: z.boolean() }),
        ...withOptions(options),
      });
      return response.data;
    },
    async setStatus(status: 'start' | 'stop', options?: RequestOptions) {
      await http.request({
        method: PUT,
        path: `${BASE}/status`,
        body: { status },
        schema: z.object({ status: z.enum(['start', 'stop']) }),
        ...withOptions(options),
      });
    },
    async arrive(options?: RequestOptions) {
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/arrive`,
        schema: z.object({ arrived: z.boolean(), offerId: z.string().nullable() }),
        ...withOptions(options),
      });
      return response.data;
    },
    async dashboard(options?: RequestOptions): Promise<DriverDashboard> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/dashboard`,
        schema: z.object({ Item: driverDashboardSchema }),
        ...withOptions(options),
      });
      return response.data.Item;
    },
    async offers(
      query: { kind: OfferKind; limit?: number; before?: number },
      options?: RequestOptions,
    ): Promise<OfferRecord[]> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/offers`,
        query,
        schema: z.object({ Items: z.array(offerRecordSchema) }),
        ...withOptions(options),
      });
      return response.data.Items;
    },
    /** From today on; with `phone`, that driver's (admins only). */
    async calendar(
      query: { phone?: string; from?: string; to?: string } = {},
      options?: RequestOptions,
    ): Promise<DriverCalendar> {
      const path = query.phone
        ? `${BASE}/admin/users/${encodeURIComponent(query.phone)}/calendar`
        : `${BASE}/calendar`;
      const response = await http.request({
        method: 'GET',
        path,
        query: { from: query.from, to: query.to },
        schema: driverCalendarSchema,
        ...withOptions(options),
      });
      return response.data;
    },
    async price(options?: RequestOptions) {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/price`,
        schema: priceResponseSchema,
        ...withOptions(options),
      });
      return response.data;
    },
    /** One idempotency key per attempt: a retried request is not charged twice. */
    async pay(request: CreatePaymentRequest, idempotencyKey: string, options?: RequestOptions) {
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/payments`,
        body: request,
        idempotencyKey,
        schema: paymentResponseSchema,
        ...withOptions(options),
      });
      return response.data;
    },
    async myInvitations(options?: RequestOptions) {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/invitations`,
        schema: driverInvitationsResponseSchema,
        ...withOptions(options),
      });
      return response.data;
    },
    async invite(phoneNumber: string, options?: RequestOptions) {
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/invitations`,
        body: { phoneNumber },
        schema: invitationResponseSchema,
        ...withOptions(options),
      });
      return response.data.Item;
    },
    async reseller(options?: RequestOptions) {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/reseller`,
        schema: resellerResponseSchema,
        ...withOptions(options),
      });
      return response.data;
    },
  };
}
export type DriverResource = ReturnType<typeof driverResource>;
