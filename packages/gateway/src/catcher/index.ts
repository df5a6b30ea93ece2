// The block catcher: inside every gateway process, it leases a fair share of the catchable drivers
// (on, in good standing, connected, set up), polls for each within reach of their schedule (all
// of them on one timing wheel, driver-polling.ts), and writes what happened to every offer in
// batches. A process that dies loses its
// leases when they expire; others take over.
import { randomUUID } from 'node:crypto';
import { scheduleSearch } from '@blockcatch/sdk';
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import type { DriverEvent } from '../alerts/index.js';
import type { CredentialCipher } from '../platform/credential-cipher.js';
import type { DeliveryPlatform, PlatformSession } from '../platform/types.js';
import type { Db } from '../storage/db.js';
import { isDatabaseUnreachable } from '../storage/db-availability.js';
import {
  loadCatchableDrivers,
  markDisconnected,
  releaseHolder,
  runLeaseRound,
} from '../storage/driver-leases.js';
import {
  markNeedsCode,
  markNeedsVerification,
  setThrottledUntil,
  updateLinkSession,
} from '../storage/driver-links.js';
import { listRecentWonBlocks, type OfferRecord, recordOffers } from '../storage/driver-offers.js';
import { beat, recordDowntimeAtStart, recordLostTime } from '../storage/lost-time.js';
import { createDriverPolling, type PollerOptions } from './driver-polling.js';
import { type LostTimeRules, lostStretchOf } from './lost-time.js';
import { createCatcherMetrics } from './metrics.js';

/** Offer records kept while the database cannot be reached; the oldest go first past it. */
const MAX_PENDING_RECORDS = 10_000;

export interface CatcherOptions extends PollerOptions {
  /** How long a lease lives without renewal: the longest a dead process's drivers wait. */
  leaseMs: number;
  /** How often leases are renewed and new drivers claimed; well under `leaseMs`. */
  renewMs: number;
  /** How often offer records are written. */
  flushMs: number;
  /** A throttle at least this long is reported as an event (shorter ones are routine). */
  throttleAlertMinMs?: number;
  /**
   * What counts as lost time for credit (docs/product.md, 'Credit for lost hours'), and how often
   * the process marks that it runs; unset, nothing is recorded.
   */
  lostTime?: LostTimeRules & { heartbeatMs: number };
}

export interface Catcher {
  readonly holderId: string;
  start(): void;
  /** Stops every poller and timer, writes pending records and gives the leases back. */
  stop(): Promise<void>;
  /** Runs a lease round now (a driver turned on or off, connected, or changed filters). */
  wake(): void;
  /** The drivers this process polls now. */
  heldDrivers(): string[];
  /**
   * Waits for the lease round under way and for the pollers being stopped, then writes the offer
   * records gathered so far (the timer does it every `flushMs`): tests read a settled state.
   */
  settle(): Promise<void>;
}

export function createCatcher(deps: {
  db: Db;
  platform: DeliveryPlatform;
  cipher: CredentialCipher;
  options: CatcherOptions;
  log: FastifyBaseLogger;
  holderId?: string;
  now?: () => number;
  /**
   * Something the driver should hear about: a block won, searching stopped (code, disconnect) or
   * throttled. Reported once per change of state, by the process that made the change.
   */
  onEvent?: (userId: string, event: DriverEvent) => void;
  /** Where the reaction time and the offers' outcomes go; unset, none are kept. */
  metrics?: Registry;
}): Catcher {
  const { db, platform, cipher, options, log } = deps;
  const now = deps.now ?? Date.now;
  const onEvent = deps.onEvent ?? (() => {});
  const holderId = deps.holderId ?? `gw-${process.pid}-${randomUUID().slice(0, 8)}`;
  const stopping = new Set<Promise<void>>();
  /** Lost time being written: stop and settle wait for it. */
  const lostTimeWrites = new Set<Promise<void>>();
  const metrics = deps.metrics
    ? createCatcherMetrics(deps.metrics, () => polling.size())
    : undefined;
  // One set of callbacks for every driver: each gets the driver's id.
  const polling = createDriverPolling({
    platform,
    options,
    now,
    record: (record) => {
      metrics?.offer(record);
      pending.push(record);
      if (record.kind === 'won') {
        void flush();
        onEvent(record.userId, {
          kind: 'block-won',
          offerId: record.offerId,
          serviceAreaId: record.serviceAreaId,
          startTime: record.startTime,
          endTime: record.endTime,
          pay: record.pay,
        });
      }
    },
    refreshSession: async (userId, expired) => {
      const fresh = await platform.refreshSession(expired);
      // The old refresh token is spent: keep polling with the new session even if saving
      // it fails (another process taking the driver over would then need a reconnect).
      void updateLinkSession(db, userId, cipher.seal(fresh), now()).catch((error) =>
        log.error({ err: error }, 'could not save a refreshed platform session'),
      );
      return fresh;
    },
    onCodeRequired: (userId) => {
      void markNeedsCode(db, userId, now()).then(
        (at) => {
          if (at !== null) onEvent(userId, { kind: 'needs-code', at });
          wake();
        },
        (error) => log.error({ err: error }, 'could not mark a driver as needing a code'),
      );
    },
    onVerificationRequired: (userId) => {
      void markNeedsVerification(db, userId, now()).then(
        (at) => {
          if (at !== null) onEvent(userId, { kind: 'needs-verification', at });
          wake();
        },
        (error) => log.error({ err: error }, 'could not mark a driver as needing a check'),
      );
    },
    onThrottled: (userId, until) => {
      const at = now();
      void setThrottledUntil(db, userId, until, at).then(
        (started) => {
          if (started && until - at >= (options.throttleAlertMinMs ?? 0)) {
            onEvent(userId, { kind: 'throttled', until });
          }
        },
        (error) => log.error({ err: error }, 'could not record a throttle'),
      );
    },
    onUnauthorized: (userId) => {
      void markDisconnected(db, userId).then(
        (at) => {
          if (at !== null) onEvent(userId, { kind: 'disconnected', at });
          wake();
        },
        (error) => log.error({ err: error }, 'could not mark a driver disconnected'),
      );
    },
    onError: (error) => log.error({ err: error }, 'poll failed'),
    onTroubleEnded: (userId, trouble) => {
      const stretch = options.lostTime ? lostStretchOf(trouble, options.lostTime) : null;
      if (!stretch) return;
      const written = recordLostTime(db, userId, stretch).catch((error) =>
        log.error({ err: error }, 'could not record lost time'),
      );
      lostTimeWrites.add(written);
      void written.finally(() => lostTimeWrites.delete(written));
    },
  });
  let pending: OfferRecord[] = [];
  let flushFailing = false;
  let roundTimer: NodeJS.Timeout | null = null;
  let heartbeatTimer: NodeJS.Timeout | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let running = false;
  let unsubscribe: (() => void) | null = null;

  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    try {
      await recordOffers(db, batch);
      flushFailing = false;
    } catch (error) {
      if (!isDatabaseUnreachable(error)) {
        log.error({ err: error }, 'could not record offers');
        return;
      }
      // Kept for the next flush (the insert skips rows already written): what the catcher saw
      // while the database was away is written when it comes back, up to a bound.
      pending = [...batch, ...pending].slice(-MAX_PENDING_RECORDS);
      if (!flushFailing) log.warn('the database cannot be reached; offer records wait for it');
      flushFailing = true;
    }
  };

  const stopPoller = (userId: string) => {
    const stopped = polling.remove(userId);
    if (stopped) {
      stopping.add(stopped);
      void stopped.finally(() => stopping.delete(stopped));
    }
    return stopped;
  };

  const leaseRound = async () => {
    const held = await runLeaseRound(db, {
      holder: holderId,
      now: now(),
      leaseMs: options.leaseMs,
    });
    if (!running) return;
    const heldSet = new Set(held);
    for (const userId of polling.userIds()) if (!heldSet.has(userId)) stopPoller(userId);
    const drivers = await loadCatchableDrivers(db, held);
    const fresh = drivers.filter((d) => !polling.has(d.userId));
    const wonBlocks = await listRecentWonBlocks(
      db,
      fresh.map((d) => d.userId),
      now(),
    );
    if (!running) return;
    const at = now();
    for (const driver of drivers) {
      // Far from every schedule window no offer could suit the driver: hold the lease, skip the
      // polls (docs/product.md, 'Outside the schedule').
      if (!scheduleSearch(driver.filters, at).searching) {
        if (polling.has(driver.userId)) stopPoller(driver.userId);
        continue;
      }
      const updatedAt = polling.filtersUpdatedAt(driver.userId);
      if (updatedAt !== undefined) {
        if (updatedAt !== driver.filtersUpdatedAt) {
          polling.setFilters(driver.userId, driver.filters, driver.filtersUpdatedAt);
        }
        continue;
      }
      let session: PlatformSession;
      try {
        session = cipher.open<PlatformSession>(driver.sessionEnc);
      } catch {
        // Sealed with another key (BLOCKCATCH_PLATFORM_KEY differs between processes or changed).
        log.warn(
          { userId: driver.userId },
          'cannot open the platform session; driver must reconnect',
        );
        const at = await markDisconnected(db, driver.userId);
        if (at !== null) onEvent(driver.userId, { kind: 'disconnected', at });
        continue;
      }
      polling.add({
        userId: driver.userId,
        session,
        filters: driver.filters,
        filtersUpdatedAt: driver.filtersUpdatedAt,
        wonBlocks: wonBlocks.get(driver.userId) ?? [],
      });
    }
  };

  const scheduleRound = (delay: number) => {
    if (!running) return;
    if (roundTimer) clearTimeout(roundTimer);
    roundTimer = setTimeout(() => {
      roundTimer = null;
      runRound();
    }, delay);
  };

  const runRound = () => {
    if (round) {
      again = true;
      return;
    }
    round = leaseRound()
      .catch((error) => log.error({ err: error }, 'lease round failed'))
      .finally(() => {
        round = null;
        if (again) {
          again = false;
          runRound();
        } else {
          scheduleRound(options.renewMs);
        }
      });
  };

  const wake = () => {
    if (running) scheduleRound(0);
  };

  return {
    holderId,
    start() {
      if (running) return;
      running = true;
      unsubscribe =
        platform.onNewOffers?.(() => {
          polling.pollSoon();
        }) ?? null;
      const tick = () => {
        flushTimer = setTimeout(() => {
          void flush().finally(() => {
            if (running) tick();
          });
        }, options.flushMs);
      };
      tick();
      runRound();
      const lostTime = options.lostTime;
      if (lostTime) {
        // A last mark older than two beats means no gateway ran in between (docs/product.md).
        void recordDowntimeAtStart(db, { now: now(), downAfterMs: 2 * lostTime.heartbeatMs })
          .then((down) => {
            if (down) log.warn(down, 'the gateway was down: recorded as lost time');
          })
          .catch((error) => log.error({ err: error }, 'could not read the heartbeat'));
        heartbeatTimer = setInterval(() => {
          void beat(db, now()).catch((error) =>
            log.error({ err: error }, 'could not write the heartbeat'),
          );
        }, lostTime.heartbeatMs);
        heartbeatTimer.unref();
      }
    },
    async stop() {
      if (!running) return;
      running = false;
      unsubscribe?.();
      if (roundTimer) clearTimeout(roundTimer);
      if (flushTimer) clearTimeout(flushTimer);
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      roundTimer = null;
      flushTimer = null;
      heartbeatTimer = null;
      await Promise.all(polling.userIds().map(stopPoller));
      await round;
      await flush();
      await Promise.all(lostTimeWrites);
      // The gateway is down from here until a process starts again.
      if (options.lostTime) {
        await beat(db, now()).catch((error) =>
          log.error({ err: error }, 'could not write the heartbeat'),
        );
      }
      await releaseHolder(db, holderId).catch((error) =>
        log.error({ err: error }, 'could not release leases'),
      );
    },
    wake,
    heldDrivers: () => polling.userIds(),
    async settle() {
      await round;
      await Promise.all(stopping);
      await flush();
      await Promise.all(lostTimeWrites);
    },
  };
}
