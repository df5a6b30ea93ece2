// The driver endpoints of packages/gateway/API.md, called through the one SDK client. The answer
// shapes the SDK does not export yet are declared here; packages/sdk/src/gateway/resources/driver.ts
// holds the same resource, and replaces this file once the SDK exports it.
import {
  type CreatePaymentRequest,
  type DriverFilters,
  driverFiltersSchema,
  driverInvitationsResponseSchema,
  invitationResponseSchema,
  paymentResponseSchema,
  priceResponseSchema,
  resellerResponseSchema,
} from '@blockcatch/sdk';
import { z } from 'zod';
import { gateway } from '../sdk.js';

const BASE = '/api/flex/v1';

/**
 * The SDK's `GatewayRequest` types its method as GET or POST, but the transport sends any verb:
 * the settings and status endpoints are PUT and the platform link is DELETE.
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

export const offerItemSchema = z.object({
  offerId: z.string(),
  kind: z.enum(['won', 'disliked', 'gone']),
  reason: z.string().nullable(),
  serviceAreaId: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  pay: z.number(),
  seenAt: z.number(),
});
export type OfferItem = z.infer<typeof offerItemSchema>;
export type OfferKind = OfferItem['kind'];

export const dashboardSchema = z.object({
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
export type Dashboard = z.infer<typeof dashboardSchema>;

export const calendarSchema = z.object({
  timeZone: z.string(),
  from: z.number(),
  to: z.number(),
  Items: z.array(offerItemSchema),
});
export type Calendar = z.infer<typeof calendarSchema>;

const challengeSchema = z.object({ challengeId: z.string(), sentTo: z.string() });

export async function connectPlatform(email: string, password: string) {
  const response = await gateway.request({
    method: 'POST',
    path: `${BASE}/platform/sign-in`,
    body: { email, password },
    schema: challengeSchema,
  });
  return response.data;
}

export async function verifyPlatform(challengeId: string, code: string) {
  await gateway.request({
    method: 'POST',
    path: `${BASE}/platform/verify`,
    body: { challengeId, code },
    schema: z.object({ proxyInstalled: z.boolean() }),
  });
}

export async function disconnectPlatform() {
  await gateway.request({
    method: DELETE,
    path: `${BASE}/platform`,
    schema: z.object({ proxyInstalled: z.boolean() }),
  });
}

export async function loadServiceAreas(): Promise<ServiceArea[]> {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/service-areas`,
    schema: z.object({ Items: z.array(serviceAreaSchema) }),
  });
  return response.data.Items;
}

export async function loadSettings(): Promise<DriverFilters | null> {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/settings`,
    schema: z.object({ Item: driverFiltersSchema.nullable(), setupComplete: z.boolean() }),
  });
  return response.data.Item;
}

export async function saveSettings(filters: DriverFilters): Promise<void> {
  await gateway.request({
    method: PUT,
    path: `${BASE}/settings`,
    body: filters,
    schema: z.object({ setupComplete: z.boolean() }).loose(),
  });
}

export async function setSystemStatus(status: 'start' | 'stop'): Promise<void> {
  await gateway.request({
    method: PUT,
    path: `${BASE}/status`,
    body: { status },
    schema: z.object({ status: z.enum(['start', 'stop']) }),
  });
}

export async function arrive() {
  const response = await gateway.request({
    method: 'POST',
    path: `${BASE}/arrive`,
    schema: z.object({ arrived: z.boolean(), offerId: z.string().nullable() }),
  });
  return response.data;
}

export async function loadDashboard(): Promise<Dashboard> {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/dashboard`,
    schema: z.object({ Item: dashboardSchema }),
  });
  return response.data.Item;
}

export async function loadOffers(kind: OfferKind, limit = 20): Promise<OfferItem[]> {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/offers`,
    query: { kind, limit },
    schema: z.object({ Items: z.array(offerItemSchema) }),
  });
  return response.data.Items;
}

/** Won blocks from today on; with `phone`, that driver's (admins only). */
export async function loadCalendar(phone?: string): Promise<Calendar> {
  const path = phone
    ? `${BASE}/admin/users/${encodeURIComponent(phone)}/calendar`
    : `${BASE}/calendar`;
  const response = await gateway.request({ method: 'GET', path, schema: calendarSchema });
  return response.data;
}

export async function loadPrice() {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/price`,
    schema: priceResponseSchema,
  });
  return response.data;
}

/** One key per attempt the driver makes: a retried request is not charged twice. */
export async function pay(request: CreatePaymentRequest, idempotencyKey: string) {
  const response = await gateway.request({
    method: 'POST',
    path: `${BASE}/payments`,
    body: request,
    idempotencyKey,
    schema: paymentResponseSchema,
  });
  return response.data;
}

export async function loadInvitations() {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/invitations`,
    schema: driverInvitationsResponseSchema,
  });
  return response.data;
}

export async function invite(phoneNumber: string) {
  const response = await gateway.request({
    method: 'POST',
    path: `${BASE}/invitations`,
    body: { phoneNumber },
    schema: invitationResponseSchema,
  });
  return response.data.Item;
}

export async function loadReseller() {
  const response = await gateway.request({
    method: 'GET',
    path: `${BASE}/reseller`,
    schema: resellerResponseSchema,
  });
  return response.data;
}
