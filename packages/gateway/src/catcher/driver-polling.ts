// Every leased driver's polling, in one place: a plain record per driver and one timer heap for
// all their next polls (timer-heap.ts), instead of a timer and a set of closures per driver. A
// poll asks the platform for offers at the account's pace, decides each new offer with the
// driver's matcher, accepts the matches and hands a record of every offer on. A driver holds a
// compiled matcher (compiled when its filters arrive, so the first offer is decided at once, and
// shared by drivers with the same filters) but not the filters themselves, and keeps the offers
// it has seen only while the platform lists any.
import {
  type Block,
  compareForTaking,
  type DriverFilters,
  WON_BLOCKS_KEPT_MS,
} from '@blockcatch/sdk';
import {
  type DeliveryPlatform,
  PlatformError,
  type PlatformOffer,
  type PlatformSession,
} from '../platform/types.js';
import type { OfferRecord } from '../storage/driver-offers.js';
import { createMatcherCache, type SharedMatcher } from './matcher-cache.js';
import { delayAfter, type PaceOptions } from './pacing.js';
import { createTimerHeap, type HeapItem } from './timer-heap.js';

export interface PollerOptions extends PaceOptions {
  /** The least time between two polls of one account, however soon new offers are announced. */
  minPollIntervalMs: number;
}

export interface PolledDriver {
  userId: string;
  session: PlatformSession;
  filters: DriverFilters;
  filtersUpdatedAt: number;
  wonBlocks: Block[];
}

export interface DriverPolling {
  /** Starts polling a driver at once. */
  add(driver: PolledDriver): void;
  has(userId: string): boolean;
  /** When the filters the driver is polled with were saved; undefined when not polled. */
  filtersUpdatedAt(userId: string): number | undefined;
  setFilters(userId: string, filters: DriverFilters, updatedAt: number): void;
  /** Stops polling a driver; resolves once its poll in flight has finished. */
  remove(userId: string): Promise<void> | undefined;
  /** New offers were announced: every driver polls as soon as its account's pace allows. */
  pollSoon(): void;
  userIds(): string[];
}

export interface DriverPollingDeps {
  platform: DeliveryPlatform;
  options: PollerOptions;
  record(record: OfferRecord): void;
  /**
   * Trades an expired or refused session for a new one (and keeps it); throws the platform's
   * refusal ('code-required', 'unauthorized') when it will not.
   */
  refreshSession(userId: string, session: PlatformSession): Promise<PlatformSession>;
  /** The platform refused the refresh too: the driver has to connect again (already removed). */
  onUnauthorized(userId: string): void;
  /** The platform wants a new one-time code before this account polls again (already removed). */
  onCodeRequired(userId: string): void;
  /** The platform asks the driver for a check in its app before it lists offers (already removed). */
  onVerificationRequired(userId: string): void;
  /** The platform throttles this account's polls until `until` (epoch ms). */
  onThrottled?(userId: string, until: number): void;
  onError(error: unknown): void;
  now?: () => number;
  random?: () => number;
}

/** One driver's state: data only, the functions below act on it. */
interface Driver extends HeapItem {
  userId: string;
  session: PlatformSession;
  filtersUpdatedAt: number;
  /** Shared with the drivers whose filters are the same (matcher-cache.ts). */
  matcher: SharedMatcher;
  wonBlocks: Block[];
  /** Offers already decided; an offer leaves the platform's list for good once it closes. */
  seen: Set<string> | null;
  /** First sights of offers whose accept failed and will be tried again. */
  retrying: Map<string, number> | null;
  lastPollAt: number;
  blockedUntil: number;
  failures: number;
  polling: boolean;
  /** Offers were announced while a poll was in flight: poll again as soon as the pace allows. */
  announced: boolean;
  stopped: boolean;
  /** The poll in flight, if any. */
  current: Promise<void> | null;
}

export function createDriverPolling(deps: DriverPollingDeps): DriverPolling {
  const { platform, options } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const drivers = new Map<string, Driver>();
  const matchers = createMatcherCache();
  const heap = createTimerHeap<Driver>({ fire: (driver) => startPoll(driver), now });

  // A poll is two plain callbacks on the platform's answer: no async frame or closure per driver.
  function startPoll(driver: Driver): void {
    if (driver.polling || driver.stopped) return;
    driver.polling = true;
    driver.lastPollAt = now();
    driver.current = platform.listOffers(driver.session).then(
      (offers) => answered(driver, offers),
      (error: unknown) => failed(driver, error),
    );
  }

  function answered(driver: Driver, offers: PlatformOffer[]): Promise<void> | undefined {
    driver.failures = 0;
    // Nothing listed and nothing remembered: the common case, settled without a decision.
    if (offers.length === 0 && !driver.seen) {
      finish(driver, okDelay(driver));
      return undefined;
    }
    return decide(driver, offers).then(
      () => finish(driver, okDelay(driver)),
      (error: unknown) => failed(driver, error),
    );
  }

  function okDelay(driver: Driver): number {
    const delay = delayAfter({ kind: 'ok' }, options);
    if (!driver.announced) return delay;
    return Math.min(delay, Math.max(0, driver.lastPollAt + options.minPollIntervalMs - now()));
  }

  function failed(driver: Driver, error: unknown): Promise<void> {
    return afterFailure(driver, error).then((delay) => finish(driver, delay));
  }

  function finish(driver: Driver, delay: number): void {
    driver.polling = false;
    driver.announced = false;
    driver.current = null;
    if (!driver.stopped) heap.schedule(driver, now() + delay);
  }

  function stop(driver: Driver): void {
    if (driver.stopped) return;
    driver.stopped = true;
    heap.cancel(driver);
    matchers.release(driver.matcher);
    if (drivers.get(driver.userId) === driver) drivers.delete(driver.userId);
  }

  async function afterFailure(driver: Driver, error: unknown): Promise<number> {
    const { userId } = driver;
    if (error instanceof PlatformError && error.kind === 'verification-required') {
      // Polling on would catch nothing and may look like a bot: stop until the driver confirms.
      stop(driver);
      deps.onVerificationRequired(userId);
      return 0;
    }
    if (error instanceof PlatformError && error.kind === 'throttled') {
      const delay = delayAfter(
        { kind: 'throttled', retryAfterMs: error.retryAfterMs ?? 1000 },
        options,
      );
      driver.blockedUntil = now() + delay;
      deps.onThrottled?.(userId, driver.blockedUntil);
      return delay;
    }
    if (
      error instanceof PlatformError &&
      (error.kind === 'unauthorized' || error.kind === 'session-expired')
    ) {
      // Refresh before giving up on the driver: only a refused refresh disconnects.
      try {
        driver.session = await deps.refreshSession(userId, driver.session);
        return 0;
      } catch (refusal) {
        if (refusal instanceof PlatformError && refusal.kind === 'code-required') {
          stop(driver);
          deps.onCodeRequired(userId);
          return 0;
        }
        if (refusal instanceof PlatformError && refusal.kind === 'unauthorized') {
          stop(driver);
          deps.onUnauthorized(userId);
          return 0;
        }
        error = refusal;
      }
    }
    driver.failures++;
    if (!(error instanceof PlatformError)) deps.onError(error);
    const delay = delayAfter(
      { kind: 'failed', consecutiveFailures: driver.failures },
      options,
      random,
    );
    driver.blockedUntil = now() + delay;
    return delay;
  }

  async function decide(driver: Driver, offers: PlatformOffer[]): Promise<void> {
    // The poll answer is in: the moment every new offer in it was first seen.
    const at = now();
    const { userId, wonBlocks } = driver;
    driver.seen ??= new Set();
    const seen = driver.seen;
    const present = new Set<string>();
    const accepts: Promise<void>[] = [];
    const fresh: PlatformOffer[] = [];
    for (const offer of offers) {
      present.add(offer.offerId);
      if (seen.has(offer.offerId)) continue;
      seen.add(offer.offerId);
      fresh.push(offer);
    }
    // Several wanted offers in one answer: the best-paying is decided (and accepted) first, so
    // overlap and the hours caps leave the lesser ones.
    if (fresh.length > 1) fresh.sort(compareForTaking);
    for (const offer of fresh) {
      const decision = driver.matcher.matcher(offer, { now: at, wonBlocks });
      const seenAt = driver.retrying?.get(offer.offerId) ?? at;
      driver.retrying?.delete(offer.offerId);
      const base = {
        userId,
        offerId: offer.offerId,
        serviceAreaId: offer.serviceAreaId,
        startTime: offer.startTime,
        endTime: offer.endTime,
        pay: offer.pay,
        seenAt,
        publishedAt: offer.publishedAt ?? null,
        decidedAt: now(),
      };
      if (!decision.accept) {
        deps.record({ ...base, kind: 'disliked', reason: decision.reason });
        continue;
      }
      // Held as won while the accept is in flight, so a second overlapping offer in the same
      // list is refused for 'overlap' instead of both being taken.
      const block: Block = {
        startTime: offer.startTime,
        endTime: offer.endTime,
        offerId: offer.offerId,
      };
      wonBlocks.push(block);
      const acceptSentAt = now();
      accepts.push(
        platform.acceptOffer(driver.session, offer.offerId).then(
          (outcome) => {
            if (outcome === 'gone') wonBlocks.splice(wonBlocks.indexOf(block), 1);
            deps.record({ ...base, acceptSentAt, answeredAt: now(), kind: outcome, reason: null });
          },
          () => {
            // Not decided: the accept failed (5xx or 429); try again on the next poll, keeping
            // the first sight for the offer's timeline.
            wonBlocks.splice(wonBlocks.indexOf(block), 1);
            seen.delete(offer.offerId);
            driver.retrying ??= new Map();
            driver.retrying.set(offer.offerId, seenAt);
          },
        ),
      );
    }
    for (const id of seen) if (!present.has(id)) seen.delete(id);
    if (driver.retrying) {
      for (const id of driver.retrying.keys()) if (!present.has(id)) driver.retrying.delete(id);
      if (driver.retrying.size === 0) driver.retrying = null;
    }
    await Promise.all(accepts);
    // Blocks over for longer than the hours caps look back no longer matter.
    for (let i = wonBlocks.length - 1; i >= 0; i--) {
      if (wonBlocks[i]!.endTime <= at - WON_BLOCKS_KEPT_MS) wonBlocks.splice(i, 1);
    }
    // Nothing listed any more: back to the bare record.
    if (seen.size === 0 && !driver.retrying) driver.seen = null;
  }

  function pollSoon(driver: Driver): void {
    if (driver.stopped) return;
    if (driver.polling) {
      driver.announced = true;
      return;
    }
    const at = now();
    const allowedAt = Math.max(driver.blockedUntil, driver.lastPollAt + options.minPollIntervalMs);
    if (allowedAt <= at) {
      heap.cancel(driver);
      startPoll(driver);
    } else if (driver.heapIndex < 0 || allowedAt < driver.dueAt) {
      heap.schedule(driver, allowedAt);
    }
  }

  return {
    add(driver) {
      const state: Driver = {
        userId: driver.userId,
        session: driver.session,
        filtersUpdatedAt: driver.filtersUpdatedAt,
        matcher: matchers.acquire(driver.filters),
        wonBlocks: driver.wonBlocks,
        seen: null,
        retrying: null,
        lastPollAt: 0,
        blockedUntil: 0,
        failures: 0,
        polling: false,
        announced: false,
        stopped: false,
        current: null,
        dueAt: 0,
        heapIndex: -1,
      };
      drivers.set(driver.userId, state);
      heap.schedule(state, now());
    },
    has: (userId) => drivers.has(userId),
    filtersUpdatedAt: (userId) => drivers.get(userId)?.filtersUpdatedAt,
    setFilters(userId, filters, updatedAt) {
      const driver = drivers.get(userId);
      if (!driver) return;
      const previous = driver.matcher;
      driver.matcher = matchers.acquire(filters);
      matchers.release(previous);
      driver.filtersUpdatedAt = updatedAt;
    },
    remove(userId) {
      const driver = drivers.get(userId);
      if (!driver) return undefined;
      stop(driver);
      return driver.current ?? Promise.resolve();
    },
    pollSoon() {
      for (const driver of drivers.values()) pollSoon(driver);
    },
    userIds: () => [...drivers.keys()],
  };
}
