// The driver endpoints under /api/flex/v1: connecting the delivery-platform account, filters,
// system on/off, "I've arrived", and the dashboard, offers and calendar the catcher's records feed.
import {
  arriveResponseSchema,
  type CalendarQuery,
  calendarQuerySchema,
  type DriverCalendar,
  driverCalendarSchema,
  driverDashboardResponseSchema,
  driverFiltersSchema,
  driverSettingsResponseSchema,
  driverStatusRequestSchema,
  driverStatusResponseSchema,
  endOfDay,
  filterPreviewResponseSchema,
  latencyResponseSchema,
  normalizePhone,
  type OfferItem,
  offersQuerySchema,
  offersResponseSchema,
  PREVIEW_DAYS,
  platformChallengeSchema,
  platformLinkResponseSchema,
  platformSignInRequestSchema,
  platformStateResponseSchema,
  platformVerifyRequestSchema,
  previewFilters,
  savedSettingsResponseSchema,
  serviceAreasResponseSchema,
  startOfDay,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { GatewayConfig } from '../config.js';
import { refundLimit, spendLimits } from '../http/counted-limits.js';
import { ApiError, invalid, notFound, quote } from '../http/errors.js';
import { phoneParamSchema } from '../http/phone-param.js';
import type { CredentialCipher } from '../platform/credential-cipher.js';
import { type DeliveryPlatform, PlatformError, type PlatformSession } from '../platform/types.js';
import type { Db } from '../storage/db.js';
import {
  connectLink,
  deleteLink,
  findDriverLink,
  savePendingLink,
} from '../storage/driver-links.js';
import {
  listOfferRecords,
  listOffersSeenBetween,
  listWonBetween,
  type OfferRecord,
} from '../storage/driver-offers.js';
import {
  findDriverFilters,
  saveDriverFilters,
  setDriverStatus,
} from '../storage/driver-settings.js';
import type { UserRecord } from '../storage/user-record.js';
import { findUserByPhone } from '../storage/users.js';
import { readDashboard } from './dashboard.js';
import { readLatency } from './latency.js';

const BASE = '/api/flex/v1';
const DAY_MS = 86_400_000;
/** The most recorded offers one preview replays (the newest): bounds its time and memory. */
const MAX_PREVIEW_OFFERS = 50_000;
const SYSTEM_OFF_MESSAGE = "You must turn on the system to use I've arrived";

export interface DriverRouteDeps {
  db: Db;
  platform: DeliveryPlatform;
  cipher: CredentialCipher;
  /** A driver's catchability changed: the catcher should look again now. */
  onDriverChanged(): void;
  /** The limits on texted codes and code guesses (shared with identity). */
  limits: GatewayConfig['identityLimits'];
  /** The calendar's zone for a driver who has saved none. */
  productTimeZone: string;
  now?: () => number;
}

const HOUR = 3600_000;

export function registerDriverRoutes(app: FastifyInstance, deps: DriverRouteDeps): void {
  const { db, platform, cipher, onDriverChanged, limits } = deps;
  const now = deps.now ?? Date.now;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    `${BASE}/platform/sign-in`,
    {
      config: { auth: 'user' },
      schema: { body: platformSignInRequestSchema, response: { 200: platformChallengeSchema } },
    },
    async (request, reply) => {
      const { user } = request.principal;
      const { body } = request;
      // A sign-in texts a code to the driver's phone: limited like every other code text.
      await spendLimits(
        db,
        reply,
        [
          {
            key: `code-text:number:${user.phone_number}`,
            limit: limits.codesPerNumberPerHour,
            windowMs: HOUR,
          },
          { key: `code-text:ip:${request.ip}`, limit: limits.codesPerIpPerHour, windowMs: HOUR },
          { key: 'code-text:total', limit: limits.codesPerHour, windowMs: HOUR },
        ],
        now(),
      );
      const { challengeId } = await platformCall(reply, () =>
        platform.signIn({ ...body, phoneNumber: user.phone_number }),
      );
      await savePendingLink(db, {
        userId: user.id,
        challengeId,
        credentialsEnc: cipher.seal({ email: body.email, password: body.password }),
      });
      return { challengeId, sentTo: user.phone_number };
    },
  );

  api.post(
    `${BASE}/platform/verify`,
    {
      config: { auth: 'user' },
      schema: { body: platformVerifyRequestSchema, response: { 200: platformLinkResponseSchema } },
    },
    async (request, reply) => {
      const { user } = request.principal;
      const { body } = request;
      const link = await findDriverLink(db, user.id);
      if (!link || link.challenge_id !== body.challengeId) {
        throw new ApiError(
          409,
          'no_pending_sign_in',
          'No sign-in is waiting for this code: sign in to your delivery account again.',
        );
      }
      // Guesses are counted per driver across codes: a new sign-in does not start the count again.
      const guessKey = `platform-code-guess:${user.id}`;
      await spendLimits(
        db,
        reply,
        [{ key: guessKey, limit: limits.codeGuessesPerHour, windowMs: HOUR }],
        now(),
      );
      const session = await platformCall(reply, () => platform.verifyOtp(body));
      await refundLimit(db, guessKey, HOUR, now());
      await connectLink(db, { userId: user.id, sessionEnc: cipher.seal(session) });
      onDriverChanged();
      return { proxyInstalled: true };
    },
  );

  api.get(
    `${BASE}/platform`,
    { config: { auth: 'user' }, schema: { response: { 200: platformStateResponseSchema } } },
    async (request) => {
      const { user } = request.principal;
      const link = await findDriverLink(db, user.id);
      return {
        proxyInstalled: user.proxy_installed,
        pendingCode: link?.challenge_id != null,
      };
    },
  );

  api.delete(
    `${BASE}/platform`,
    { config: { auth: 'user' }, schema: { response: { 200: platformLinkResponseSchema } } },
    async (request) => {
      const { user } = request.principal;
      await deleteLink(db, user.id);
      onDriverChanged();
      return { proxyInstalled: false };
    },
  );

  api.get(
    `${BASE}/service-areas`,
    { config: { auth: 'user' }, schema: { response: { 200: serviceAreasResponseSchema } } },
    async (_request, reply) => {
      return { Items: await platformCall(reply, () => platform.listServiceAreas()) };
    },
  );

  api.get(
    `${BASE}/settings`,
    { config: { auth: 'user' }, schema: { response: { 200: driverSettingsResponseSchema } } },
    async (request) => {
      const { user } = request.principal;
      return { Item: await findDriverFilters(db, user.id), setupComplete: user.setup_complete };
    },
  );

  api.put(
    `${BASE}/settings`,
    {
      config: { auth: 'user' },
      schema: { body: driverFiltersSchema, response: { 200: savedSettingsResponseSchema } },
    },
    async (request, reply) => {
      const { user } = request.principal;
      const filters = request.body;
      const known = new Set(
        (await platformCall(reply, () => platform.listServiceAreas())).map((a) => a.id),
      );
      const unknown = filters.warehouses.find((id) => !known.has(id));
      if (unknown !== undefined) {
        throw invalid(
          'warehouses',
          `${quote(unknown)} is not a service area; pick one from GET ${BASE}/service-areas`,
        );
      }
      const { setupComplete } = await saveDriverFilters(db, user.id, filters);
      onDriverChanged();
      return { Item: filters, setupComplete };
    },
  );

  api.post(
    `${BASE}/settings/preview`,
    {
      config: { auth: 'user' },
      schema: { body: driverFiltersSchema, response: { 200: filterPreviewResponseSchema } },
    },
    async (request) => {
      const { user } = request.principal;
      const now = Date.now();
      const from = now - PREVIEW_DAYS * DAY_MS;
      const [saved, offers] = await Promise.all([
        findDriverFilters(db, user.id),
        listOffersSeenBetween(db, user.id, from, now, MAX_PREVIEW_OFFERS),
      ]);
      // With nothing saved yet the catcher takes nothing: compare against filters that match none.
      const current = saved ?? { ...request.body, warehouses: [] };
      return { Item: previewFilters(offers, current, request.body, { now }) };
    },
  );

  api.put(
    `${BASE}/status`,
    {
      config: { auth: 'user' },
      schema: { body: driverStatusRequestSchema, response: { 200: driverStatusResponseSchema } },
    },
    async (request) => {
      const { user } = request.principal;
      const { status } = request.body;
      await setDriverStatus(db, user.id, status);
      onDriverChanged();
      return { status };
    },
  );

  api.post(
    `${BASE}/arrive`,
    { config: { auth: 'user' }, schema: { response: { 200: arriveResponseSchema } } },
    async (request, reply) => {
      const { user } = request.principal;
      if (user.status !== 'start') throw new ApiError(409, 'system_off', SYSTEM_OFF_MESSAGE);
      const link = await findDriverLink(db, user.id);
      if (!link?.session_enc) {
        throw new ApiError(409, 'not_connected', 'Connect your delivery account first.');
      }
      const session = cipher.open<PlatformSession>(link.session_enc);
      const { offerId } = await platformCall(reply, () => platform.arrive(session));
      return { arrived: offerId !== null, offerId };
    },
  );

  api.get(
    `${BASE}/offers`,
    {
      config: { auth: 'user' },
      schema: { querystring: offersQuerySchema, response: { 200: offersResponseSchema } },
    },
    async (request) => {
      const { user } = request.principal;
      const { query } = request;
      const records = await listOfferRecords(db, user.id, query);
      return { Items: records.map(toOfferItem) };
    },
  );

  api.get(
    `${BASE}/dashboard`,
    { config: { auth: 'user' }, schema: { response: { 200: driverDashboardResponseSchema } } },
    async (request) => {
      const { user } = request.principal;
      return { Item: await readDashboard(db, user) };
    },
  );

  api.get(
    `${BASE}/calendar`,
    {
      config: { auth: 'user' },
      schema: { querystring: calendarQuerySchema, response: { 200: driverCalendarSchema } },
    },
    async (request) => {
      const { user } = request.principal;
      return calendarOf(user, request.query);
    },
  );

  api.get(
    `${BASE}/latency`,
    { config: { auth: 'user' }, schema: { response: { 200: latencyResponseSchema } } },
    async (request) => ({ Item: await readLatency(db, request.principal.user.id) }),
  );

  api.get(
    `${BASE}/admin/users/:phone/latency`,
    {
      config: { auth: 'admin' },
      schema: { params: phoneParamSchema, response: { 200: latencyResponseSchema } },
    },
    async (request) => {
      const user = await driverByPhone(request.params);
      return { Item: await readLatency(db, user.id) };
    },
  );

  api.get(
    `${BASE}/admin/users/:phone/dashboard`,
    {
      config: { auth: 'admin' },
      schema: { params: phoneParamSchema, response: { 200: driverDashboardResponseSchema } },
    },
    async (request) => {
      const user = await driverByPhone(request.params);
      return { Item: await readDashboard(db, user) };
    },
  );

  api.get(
    `${BASE}/admin/users/:phone/calendar`,
    {
      config: { auth: 'admin' },
      schema: {
        params: phoneParamSchema,
        querystring: calendarQuerySchema,
        response: { 200: driverCalendarSchema },
      },
    },
    async (request) => calendarOf(await driverByPhone(request.params), request.query),
  );

  async function driverByPhone({ phone }: { phone: string }): Promise<UserRecord> {
    const normalized = normalizePhone(phone)!;
    const user = await findUserByPhone(db, 'flex', normalized);
    if (!user) throw notFound(`No Flex user has the phone number ${normalized}.`);
    return user;
  }

  async function calendarOf(user: UserRecord, query: CalendarQuery): Promise<DriverCalendar> {
    const timeZone = (await findDriverFilters(db, user.id))?.timeZone ?? deps.productTimeZone;
    const today = new Date().toLocaleDateString('en-CA', { timeZone });
    const from = startOfDay(query.from ?? today, timeZone);
    const to = query.to ? endOfDay(query.to, timeZone) : from + 31 * DAY_MS;
    const won = await listWonBetween(db, user.id, from, to);
    return { timeZone, from, to, Items: won.map(toOfferItem) };
  }
}

function toOfferItem(record: OfferRecord): OfferItem {
  return {
    offerId: record.offerId,
    kind: record.kind,
    reason: record.reason,
    serviceAreaId: record.serviceAreaId,
    startTime: record.startTime,
    endTime: record.endTime,
    pay: record.pay,
    seenAt: record.seenAt,
  };
}

/** Maps the platform's failures to answers the driver's client can act on. */
async function platformCall<T>(reply: FastifyReply, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    switch (error.kind) {
      case 'invalid-credentials':
        throw new ApiError(422, 'platform_sign_in_failed', error.message);
      case 'invalid-code':
      case 'expired-code':
        throw new ApiError(422, 'invalid_code', error.message);
      case 'unauthorized':
      case 'session-expired':
        throw new ApiError(409, 'not_connected', 'Connect your delivery account again.');
      case 'verification-required':
        throw new ApiError(
          409,
          'platform_verification_required',
          "The delivery platform asks you to complete a check in its app; then press I've done it.",
        );
      case 'code-required':
        throw new ApiError(
          409,
          'platform_code_required',
          'The delivery platform asks for a new code: sign in to your delivery account again.',
        );
      case 'throttled':
        reply.header('retry-after', String(Math.ceil((error.retryAfterMs ?? 1000) / 1000)));
        throw new ApiError(
          429,
          'platform_throttled',
          'The delivery platform asks to wait; try again shortly.',
        );
      case 'unavailable':
        throw new ApiError(
          502,
          'platform_unavailable',
          'The delivery platform is not answering; try again shortly.',
        );
    }
  }
}
