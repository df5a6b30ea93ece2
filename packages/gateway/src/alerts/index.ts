// Alerts to drivers (docs/product.md, "Alerts"): the catcher, payments and a periodic sweep report
// what happened; this module checks the driver's switch, writes the text in their language and
// queues it through the messaging pipeline (opt-outs, pace, quiet hours where they apply). Each
// event has a key that is the send job's idempotency key, unique per driver in the database and
// inserted with ON CONFLICT DO NOTHING: however many processes see an event, one message goes.
import { type DriverFilters, PREVIEW_DAYS, REGION_TIME_ZONES } from '@blockcatch/sdk';
import type { FastifyBaseLogger } from 'fastify';
import { appBaseUrl, type GatewayConfig } from '../config.js';
import type { Enqueue } from '../messaging/enqueue.js';
import type { ServiceArea } from '../platform/types.js';
import type { Db, Queryable } from '../storage/db.js';
import { findAlertSettings } from '../storage/driver-alert-settings.js';
import { listOffersSeenBetween } from '../storage/driver-offers.js';
import { findDriverFilters } from '../storage/driver-settings.js';
import { isoWeekOf, suggestFilterChange } from './digest.js';
import { ALERT_SWITCH, type AlertEvent, AT_ANY_HOUR, alertKey, alertText } from './texts.js';

export type { AlertEvent } from './texts.js';

/** A won block as the catcher knows it: the station by id. */
export type DriverEvent =
  | Exclude<AlertEvent, { kind: 'block-won' }>
  | {
      kind: 'block-won';
      offerId: string;
      serviceAreaId: string;
      startTime: number;
      endTime: number;
      pay: number;
    };

/** An alert that is worthless after some time says so: it expires instead of arriving late. */
function alertExpiry(event: AlertEvent): { expiresAt?: number } {
  if (event.kind === 'throttled') return { expiresAt: event.until };
  if (event.kind === 'block-won') return { expiresAt: event.startTime };
  return {};
}

/** What became of one event: queued (or already queued by someone), switched off, or no phone. */
export type AlertOutcome = 'queued' | 'already-queued' | 'off' | 'no-recipient';

export interface Alerts {
  /** Queues the alert for `event` unless the driver turned it off; once per event. */
  notify(userId: string, event: DriverEvent): Promise<AlertOutcome>;
  /** The same, for callers that must not wait or fail (the catcher's hot path): errors are logged. */
  report(userId: string, event: DriverEvent): void;
  /** Looks for time-based alerts (service ending within 24 hours) now, as the timer does. */
  sweepNow(): Promise<number>;
  /**
   * Looks for weekly summaries due at `at` (default now), as the timer does hourly: on Monday on a
   * driver's clock, the filter change that would have caught the most last week, if any.
   */
  digestNow(at?: number): Promise<number>;
  /** Waits for the alerts being queued now (tests read a settled state). */
  settle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Drivers a sweep alerts at most; the next sweep takes the rest. */
const SWEEP_BATCH = 500;
/** Offers a digest replays at most (a week of a busy driver's offers). */
const MAX_DIGEST_OFFERS = 50_000;

export function createAlerts(deps: {
  db: Db;
  config: GatewayConfig;
  enqueue: Enqueue;
  log: FastifyBaseLogger;
  serviceAreas: () => Promise<readonly ServiceArea[]>;
  now?: () => number;
}): Alerts {
  const { db, config, log } = deps;
  const now = deps.now ?? Date.now;
  const baseUrl = appBaseUrl(config);
  const inFlight = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | null = null;

  async function toAlertEvent(event: DriverEvent): Promise<AlertEvent> {
    if (event.kind !== 'block-won') return event;
    const area = (await deps.serviceAreas()).find((a) => a.id === event.serviceAreaId);
    return {
      kind: 'block-won',
      offerId: event.offerId,
      station: area?.name ?? event.serviceAreaId,
      startTime: event.startTime,
      endTime: event.endTime,
      pay: event.pay,
      timeZone: area?.timeZone ?? config.productTimeZone,
    };
  }

  async function notify(userId: string, driverEvent: DriverEvent): Promise<AlertOutcome> {
    const [user] = await db.query<{
      phone_number: string;
      preferred_language: string;
      human_region: string | null;
    }>('SELECT phone_number, preferred_language, human_region FROM users WHERE id = $1', [userId]);
    if (!user?.phone_number) return 'no-recipient';
    const settings = await findAlertSettings(db, userId);
    if (!settings.enabled[ALERT_SWITCH[driverEvent.kind]]) return 'off';
    const event = await toAlertEvent(driverEvent);
    const timeZone = await driverTimeZone(db, userId, user.human_region, config.productTimeZone);
    const queued = await deps.enqueue({
      createdBy: userId,
      key: alertKey(event),
      to: user.phone_number,
      body: alertText(event, { language: user.preferred_language, timeZone, baseUrl }),
      quietHours: !AT_ANY_HOUR.has(event.kind),
      channel: settings.channel,
      ...alertExpiry(event),
    });
    return queued.created ? 'queued' : 'already-queued';
  }

  async function sweepExpiring(): Promise<number> {
    const at = now();
    // Drivers whose paid time ends within a day and who have not had this expiry's alert yet.
    const due = await db.query<{ id: string; expiration_ts: number }>(
      `SELECT u.id, u.expiration_ts FROM users u
       LEFT JOIN driver_alert_settings s ON s.user_id = u.id
       WHERE u.product = 'flex' AND u.good_standing AND u.expiration_ts > $1
         AND u.expiration_ts <= $1 + $2
         AND coalesce((s.settings -> 'enabled' ->> 'expiring')::boolean, true)
         AND NOT EXISTS (SELECT 1 FROM send_jobs j WHERE j.created_by = u.id
                           AND j.idempotency_key = 'alert:expiring:' || u.expiration_ts)
       ORDER BY u.expiration_ts LIMIT $3`,
      [at, DAY_MS, SWEEP_BATCH],
    );
    let queued = 0;
    for (const row of due) {
      const outcome = await notify(row.id, {
        kind: 'expiring',
        expiresAt: Number(row.expiration_ts),
      });
      if (outcome === 'queued') queued++;
    }
    return queued;
  }

  async function sweepDigests(at: number): Promise<number> {
    let after = '';
    let queued = 0;
    for (;;) {
      // Drivers the catcher works for, a page at a time, whose summary is on.
      const page = await db.query<{ id: string; filters: DriverFilters }>(
        `SELECT u.id, s.filters FROM users u
         JOIN driver_settings s ON s.user_id = u.id
         LEFT JOIN driver_alert_settings a ON a.user_id = u.id
         WHERE u.product = 'flex' AND u.good_standing AND u.setup_complete AND u.id > $1
           AND coalesce((a.settings -> 'enabled' ->> 'weeklyDigest')::boolean, true)
         ORDER BY u.id LIMIT $2`,
        [after, SWEEP_BATCH],
      );
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const due = page
        .map((row) => ({
          ...row,
          ...isoWeekOf(at, row.filters.timeZone ?? config.productTimeZone),
        }))
        .filter((row) => row.weekday === 1);
      const done = new Set(
        (
          await db.query<{ created_by: string }>(
            `SELECT created_by FROM send_jobs WHERE created_by = ANY($1::text[])
               AND idempotency_key = ANY($2::text[])`,
            [due.map((d) => d.id), [...new Set(due.map((d) => `alert:weekly-digest:${d.week}`))]],
          )
        ).map((r) => r.created_by),
      );
      for (const driver of due) {
        if (done.has(driver.id)) continue;
        const offers = await listOffersSeenBetween(
          db,
          driver.id,
          at - PREVIEW_DAYS * DAY_MS,
          at,
          MAX_DIGEST_OFFERS,
        );
        const suggestion = suggestFilterChange(offers, driver.filters, at);
        if (!suggestion) continue;
        const outcome = await notify(driver.id, {
          kind: 'weekly-digest',
          week: driver.week,
          ...suggestion,
        });
        if (outcome === 'queued') queued++;
      }
      if (page.length < SWEEP_BATCH) break;
    }
    return queued;
  }

  let lastDigestSweep = 0;
  const sweep = async () => {
    await sweepExpiring();
    const at = now();
    if (at - lastDigestSweep >= HOUR_MS) {
      lastDigestSweep = at;
      await sweepDigests(at);
    }
  };

  const track = <T>(promise: Promise<T>) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  };

  return {
    notify: (userId, event) => track(notify(userId, event)),
    report(userId, event) {
      track(notify(userId, event)).catch((error: unknown) =>
        log.error({ err: error, kind: event.kind }, 'could not queue an alert'),
      );
    },
    sweepNow: () => track(sweepExpiring()),
    digestNow: (at) => track(sweepDigests(at ?? now())),
    async settle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    start() {
      if (config.alerts.sweepMs === 0 || timer) return;
      timer = setInterval(() => {
        track(sweep()).catch((error: unknown) => log.error({ err: error }, 'alert sweep failed'));
      }, config.alerts.sweepMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The zone a driver reads times in: their filters', else their region's, else the product's. */
async function driverTimeZone(
  db: Queryable,
  userId: string,
  region: string | null,
  fallback: string,
): Promise<string> {
  const filters = await findDriverFilters(db, userId);
  return filters?.timeZone ?? (region && REGION_TIME_ZONES[region]) ?? fallback;
}
