// Every leased driver's polling, in one place: each driver is a slot number whose state lives in
// typed arrays (a few bytes a driver, no object), and one timing wheel holds every next poll
// (timing-wheel.ts), instead of a timer and a set of closures per driver. A poll asks the platform for offers at the account's pace, decides each new offer with the
// driver's matcher, accepts the matches and hands a record of every offer on. A driver holds a
// compiled matcher (compiled when its filters arrive, so the first offer is decided at once, and
// shared by drivers with the same filters) but not the filters themselves, and keeps the offers
// it has seen, and its won blocks, only while there are any.
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
import { createTimingWheel } from './timing-wheel.js';

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
  /** How many drivers are polled. */
  size(): number;
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
  /**
   * A stretch of trouble ended (an answer came, or the driver stopped being polled): the platform
   * failing (`failures` polls in a row) or throttling, from the first such poll to `end`.
   */
  onTroubleEnded?(userId: string, trouble: PollTrouble): void;
  onError(error: unknown): void;
  now?: () => number;
  random?: () => number;
}

export interface PollTrouble {
  kind: 'failing' | 'throttled';
  start: number;
  end: number;
  /** Failed polls in the stretch ('failing'). */
  failures: number;
}

/** What only some drivers have at a time: kept apart so the idle ones cost nothing for it. */
interface DriverOffers {
  /** Blocks won and not over, for the overlap rule. */
  wonBlocks: Block[];
  /** Offers already decided; an offer leaves the platform's list for good once it closes. */
  seen: Set<string> | null;
  /** First sights of offers whose accept failed and will be tried again. */
  retrying: Map<string, number> | null;
}

// A driver's flags.
const POLLING = 1;
/** Offers were announced while a poll was in flight: poll again as soon as the pace allows. */
const ANNOUNCED = 2;
const STOPPED = 4;
/** `remove` waits for the poll in flight. */
const AWAITED = 8;
/** In a stretch of the platform failing (5xx, no answer) or throttling, since `troubleSince`. */
const FAILING = 16;
const THROTTLED = 32;
/**
 * The driver remembers offers it has seen (its `DriverOffers.seen` is set): kept as a flag so the
 * common empty answer is settled without looking the driver up in `offersOf`.
 */
const SEEN = 64;

/** Typed arrays grow by this many drivers, so the slack stays small. */
const GROWTH = 16_384;

export function createDriverPolling(deps: DriverPollingDeps): DriverPolling {
  const { platform, options } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const matchers = createMatcherCache();
  const wheel = createTimingWheel({ fire: startPoll, now });
  const slots = new Map<string, number>();
  const free: number[] = [];
  let used = 0;
  // A driver's state by slot.
  const userIds: (string | null)[] = [];
  const sessions: (PlatformSession | null)[] = [];
  const matcherOf: (SharedMatcher | null)[] = [];
  const offersOf = new Map<number, DriverOffers>();
  const removals = new Map<number, () => void>();
  /** The earliest the account may be polled again: the least interval after the last poll, or the end of a back-off. */
  let earliest = new Float64Array(0);
  let filtersSavedAt = new Float64Array(0);
  let failures = new Uint8Array(0);
  let troubleSince = new Float64Array(0);
  let troubleFailures = new Uint8Array(0);
  let flags = new Uint8Array(0);
  /**
   * The clock's reading a round of polls started by, kept while the answers that settle in the same
   * turn are handled (an in-process platform answers at once), NaN otherwise: an empty poll's
   * bookkeeping then reads no clock at all. A reading costs 70-100 ns here, as much as the rest of
   * that bookkeeping, and 100,000 drivers poll 100,000 times a second. Such an answer's next poll
   * is due an interval after the round started, earlier by at most the turn's own work than one
   * read after the answer, and still an interval after the poll began.
   */
  let turnAt = Number.NaN;

  function allocate(): number {
    const reused = free.pop();
    if (reused !== undefined) return reused;
    const slot = used++;
    if (slot >= flags.length) {
      const length = flags.length + GROWTH;
      earliest = grown(earliest, new Float64Array(length));
      filtersSavedAt = grown(filtersSavedAt, new Float64Array(length));
      failures = grown(failures, new Uint8Array(length));
      troubleSince = grown(troubleSince, new Float64Array(length));
      troubleFailures = grown(troubleFailures, new Uint8Array(length));
      flags = grown(flags, new Uint8Array(length));
    }
    return slot;
  }

  function release(slot: number): void {
    userIds[slot] = null;
    sessions[slot] = null;
    matcherOf[slot] = null;
    offersOf.delete(slot);
    flags[slot] = 0;
    failures[slot] = 0;
    free.push(slot);
  }

  // A poll is two plain callbacks on the platform's answer: no async frame per driver. `at` is the
  // clock's reading the caller has just made (see turnAt).
  function startPoll(slot: number, at: number): void {
    if (flags[slot]! & (POLLING | STOPPED)) return;
    flags[slot]! |= POLLING;
    if (Number.isNaN(turnAt)) {
      turnAt = at;
      // Queued from a microtask, the reset runs after the reactions to answers given at once,
      // which were queued as their polls started; before any later turn in every case.
      queueMicrotask(() => queueMicrotask(endTurn));
    }
    earliest[slot] = at + options.minPollIntervalMs;
    platform.listOffers(sessions[slot]!).then(
      (offers) => answered(slot, offers),
      (error: unknown) => failed(slot, error),
    );
  }

  function answered(slot: number, offers: PlatformOffer[]): Promise<void> | undefined {
    failures[slot] = 0;
    if (flags[slot]! & (FAILING | THROTTLED)) endTrouble(slot);
    // Nothing listed and nothing remembered: the common case, settled without a decision.
    if (offers.length === 0 && !(flags[slot]! & SEEN)) {
      finish(slot, okDelay(slot));
      return undefined;
    }
    return decide(slot, offers).then(
      () => finish(slot, okDelay(slot)),
      (error: unknown) => failed(slot, error),
    );
  }

  function endTurn(): void {
    turnAt = Number.NaN;
  }

  function okDelay(slot: number): number {
    const delay = delayAfter({ kind: 'ok' }, options);
    if (!(flags[slot]! & ANNOUNCED)) return delay;
    return Math.min(delay, Math.max(0, earliest[slot]! - now()));
  }

  function failed(slot: number, error: unknown): Promise<void> {
    return afterFailure(slot, error).then((delay) => finish(slot, delay));
  }

  function finish(slot: number, delay: number): void {
    const state = flags[slot]!;
    flags[slot] = state & ~(POLLING | ANNOUNCED | AWAITED);
    if (state & AWAITED) {
      removals.get(slot)?.();
      removals.delete(slot);
    }
    if (state & STOPPED) release(slot);
    else wheel.schedule(slot, (Number.isNaN(turnAt) ? now() : turnAt) + delay);
  }

  /** Reports the stretch of trouble the driver is in as over now. */
  function endTrouble(slot: number): void {
    const state = flags[slot]!;
    if (!(state & (FAILING | THROTTLED))) return;
    flags[slot] = state & ~(FAILING | THROTTLED);
    deps.onTroubleEnded?.(userIds[slot]!, {
      kind: state & FAILING ? 'failing' : 'throttled',
      start: troubleSince[slot]!,
      end: now(),
      failures: troubleFailures[slot]!,
    });
  }

  /** Starts (or goes on with) a stretch of trouble of one kind; another kind's stretch ends. */
  function inTrouble(slot: number, kind: typeof FAILING | typeof THROTTLED): void {
    if (!(flags[slot]! & kind)) {
      endTrouble(slot);
      flags[slot]! |= kind;
      troubleSince[slot] = now();
      troubleFailures[slot] = 0;
    }
    if (kind === FAILING) troubleFailures[slot] = Math.min(255, troubleFailures[slot]! + 1);
  }

  function stop(slot: number): void {
    if (flags[slot]! & STOPPED) return;
    endTrouble(slot);
    flags[slot]! |= STOPPED;
    wheel.cancel(slot);
    matchers.release(matcherOf[slot]!);
    const userId = userIds[slot]!;
    if (slots.get(userId) === slot) slots.delete(userId);
    // A poll in flight still reads the slot; it is freed when that poll ends.
    if (!(flags[slot]! & POLLING)) release(slot);
  }

  /** Blocks the account from polling for `delay` ms (a back-off or the platform's Retry-After). */
  function block(slot: number, delay: number): number {
    earliest[slot] = Math.max(earliest[slot]!, now() + delay);
    return delay;
  }

  async function afterFailure(slot: number, error: unknown): Promise<number> {
    const userId = userIds[slot]!;
    if (error instanceof PlatformError && error.kind === 'verification-required') {
      // Polling on would catch nothing and may look like a bot: stop until the driver confirms.
      stop(slot);
      deps.onVerificationRequired(userId);
      return 0;
    }
    if (error instanceof PlatformError && error.kind === 'throttled') {
      inTrouble(slot, THROTTLED);
      const delay = block(
        slot,
        delayAfter({ kind: 'throttled', retryAfterMs: error.retryAfterMs ?? 1000 }, options),
      );
      deps.onThrottled?.(userId, now() + delay);
      return delay;
    }
    if (
      error instanceof PlatformError &&
      (error.kind === 'unauthorized' || error.kind === 'session-expired')
    ) {
      // Refresh before giving up on the driver: only a refused refresh disconnects.
      try {
        const fresh = await deps.refreshSession(userId, sessions[slot]!);
        if (!(flags[slot]! & STOPPED)) sessions[slot] = fresh;
        return 0;
      } catch (refusal) {
        if (refusal instanceof PlatformError && refusal.kind === 'code-required') {
          stop(slot);
          deps.onCodeRequired(userId);
          return 0;
        }
        if (refusal instanceof PlatformError && refusal.kind === 'unauthorized') {
          stop(slot);
          deps.onUnauthorized(userId);
          return 0;
        }
        error = refusal;
      }
    }
    failures[slot] = Math.min(255, failures[slot]! + 1);
    if (error instanceof PlatformError && error.kind === 'unavailable') inTrouble(slot, FAILING);
    if (!(error instanceof PlatformError)) deps.onError(error);
    return block(
      slot,
      delayAfter({ kind: 'failed', consecutiveFailures: failures[slot]! }, options, random),
    );
  }

  async function decide(slot: number, offers: PlatformOffer[]): Promise<void> {
    // The poll answer is in: the moment every new offer in it was first seen.
    const at = now();
    const userId = userIds[slot]!;
    const matcher = matcherOf[slot]!.matcher;
    let state = offersOf.get(slot);
    if (!state) {
      state = { wonBlocks: [], seen: null, retrying: null };
      offersOf.set(slot, state);
    }
    const driver = state;
    const { wonBlocks } = driver;
    driver.seen ??= new Set();
    flags[slot]! |= SEEN;
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
      const decision = matcher(offer, { now: at, wonBlocks });
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
        platform.acceptOffer(sessions[slot]!, offer.offerId).then(
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
    if (seen.size === 0 && !driver.retrying) {
      driver.seen = null;
      flags[slot]! &= ~SEEN;
    }
    if (!driver.seen && wonBlocks.length === 0 && offersOf.get(slot) === driver) {
      offersOf.delete(slot);
    }
  }

  function pollSoon(slot: number): void {
    const state = flags[slot]!;
    if (state & STOPPED) return;
    if (state & POLLING) {
      flags[slot] = state | ANNOUNCED;
      return;
    }
    const allowedAt = earliest[slot]!;
    const at = now();
    if (allowedAt <= at) {
      wheel.cancel(slot);
      startPoll(slot, at);
    } else if (!wheel.isScheduled(slot) || allowedAt < wheel.dueAt(slot)) {
      wheel.schedule(slot, allowedAt);
    }
  }

  return {
    add(driver) {
      const slot = allocate();
      slots.set(driver.userId, slot);
      userIds[slot] = driver.userId;
      sessions[slot] = driver.session;
      matcherOf[slot] = matchers.acquire(driver.filters);
      if (driver.wonBlocks.length > 0) {
        offersOf.set(slot, { wonBlocks: driver.wonBlocks, seen: null, retrying: null });
      }
      earliest[slot] = 0;
      filtersSavedAt[slot] = driver.filtersUpdatedAt;
      failures[slot] = 0;
      flags[slot] = 0;
      wheel.schedule(slot, now());
    },
    has: (userId) => slots.has(userId),
    filtersUpdatedAt(userId) {
      const slot = slots.get(userId);
      return slot === undefined ? undefined : filtersSavedAt[slot];
    },
    setFilters(userId, filters, updatedAt) {
      const slot = slots.get(userId);
      if (slot === undefined) return;
      const previous = matcherOf[slot]!;
      matcherOf[slot] = matchers.acquire(filters);
      matchers.release(previous);
      filtersSavedAt[slot] = updatedAt;
    },
    remove(userId) {
      const slot = slots.get(userId);
      if (slot === undefined) return undefined;
      const inFlight = (flags[slot]! & POLLING) !== 0;
      stop(slot);
      if (!inFlight) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const earlier = removals.get(slot);
        removals.set(slot, () => {
          earlier?.();
          resolve();
        });
        flags[slot]! |= AWAITED;
      });
    },
    pollSoon() {
      for (const slot of slots.values()) pollSoon(slot);
    },
    userIds: () => [...slots.keys()],
    size: () => slots.size,
  };
}

function grown<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
