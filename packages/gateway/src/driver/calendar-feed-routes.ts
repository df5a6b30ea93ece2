// The driver's private calendar address: made (and shown once), read, turned off under
// /api/flex/v1/calendar-feed, and the address itself, which serves the won blocks as iCalendar to
// whoever holds it (a calendar app cannot sign in). The secret is 256 random bits; only its hash
// is stored, so a leaked database does not open anyone's calendar.
import { createHash, randomBytes } from 'node:crypto';
import { calendarFeedCreatedSchema, calendarFeedStateSchema } from '@blockcatch/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import { SECRET_PATH_PREFIXES } from '../http/request-log.js';
import type { DeliveryPlatform } from '../platform/types.js';
import {
  deleteCalendarFeed,
  findCalendarFeed,
  findCalendarFeedOwner,
  replaceCalendarFeed,
} from '../storage/calendar-feeds.js';
import type { Db } from '../storage/db.js';
import { listWonBetween } from '../storage/driver-offers.js';
import { blocksCalendar } from './ics.js';

/** Where the addresses live; the request log hides what follows it. */
const CALENDAR_FEED_PREFIX = SECRET_PATH_PREFIXES[0];
const DAY_MS = 86_400_000;
/** Blocks in the feed: from this long ago to this far ahead. */
const PAST_MS = 30 * DAY_MS;
const AHEAD_MS = 90 * DAY_MS;

/** 32 random bytes in base64url, then `.ics`, which calendar apps like to see. */
const feedFileSchema = z.strictObject({
  file: z
    .string()
    .max(47, { abort: true })
    .regex(/^[\w-]{43}\.ics$/, { message: 'expected the calendar address as it was given' }),
});

export function registerCalendarFeedRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    platform: DeliveryPlatform;
    /** The public address of the gateway; unset, the request's own. */
    publicUrl: string | undefined;
    now?: () => number;
  },
): void {
  const { db, platform } = deps;
  const now = deps.now ?? Date.now;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const base = (request: FastifyRequest) =>
    deps.publicUrl ?? `${request.protocol}://${request.host}`;

  api.get(
    '/api/flex/v1/calendar-feed',
    { config: { auth: 'user' }, schema: { response: { 200: calendarFeedStateSchema } } },
    async (request) => {
      const feed = await findCalendarFeed(db, request.principal.user.id);
      return { active: feed !== null, createdAt: feed?.createdAt ?? null };
    },
  );

  api.post(
    '/api/flex/v1/calendar-feed',
    {
      config: { auth: 'user' },
      schema: { body: z.strictObject({}), response: { 200: calendarFeedCreatedSchema } },
    },
    async (request, reply) => {
      const secret = randomBytes(32).toString('base64url');
      const createdAt = now();
      await replaceCalendarFeed(db, request.principal.user.id, hash(secret), createdAt);
      // The address is a credential: no cache keeps the answer.
      reply.header('cache-control', 'no-store');
      return { url: `${base(request)}${CALENDAR_FEED_PREFIX}${secret}.ics`, createdAt };
    },
  );

  api.delete(
    '/api/flex/v1/calendar-feed',
    { config: { auth: 'user' }, schema: { response: { 200: calendarFeedStateSchema } } },
    async (request) => {
      await deleteCalendarFeed(db, request.principal.user.id);
      return { active: false, createdAt: null };
    },
  );

  api.get(
    `${CALENDAR_FEED_PREFIX}:file`,
    { config: { auth: 'public' }, schema: { params: feedFileSchema } },
    async (request, reply) => {
      const owner = await findCalendarFeedOwner(db, hash(request.params.file.slice(0, -4)));
      if (owner === null) throw notFound('No calendar at this address: it may have been revoked.');
      const at = now();
      const [won, areas] = await Promise.all([
        listWonBetween(db, owner.userId, at - PAST_MS, at + AHEAD_MS),
        platform.listServiceAreas(),
      ]);
      const names = new Map(areas.map((a) => [a.id, a.name]));
      const body = blocksCalendar(
        won.map((b) => ({
          offerId: b.offerId,
          station: names.get(b.serviceAreaId) ?? b.serviceAreaId,
          startTime: b.startTime,
          endTime: b.endTime,
          pay: b.pay,
        })),
        { language: owner.language, now: at },
      );
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex')
        .send(body);
    },
  );
}

function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64');
}
