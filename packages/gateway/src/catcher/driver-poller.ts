// One driver's polling loop: asks the platform for offers at the account's pace, decides each new
// offer with the driver's matcher, accepts the matches and hands a record of every offer on.
import {
  type Block,
  createOfferMatcher,
  type DriverFilters,
  type OfferMatcher,
} from '@blockcatch/sdk';
import { type DeliveryPlatform, PlatformError, type PlatformSession } from '../platform/types.js';
import type { OfferRecord } from '../storage/driver-offers.js';
import { delayAfter, type PaceOptions } from './pacing.js';

export interface PollerOptions extends PaceOptions {
  /** The least time between two polls of one account, however soon new offers are announced. */
  minPollIntervalMs: number;
}

export interface DriverPoller {
  readonly userId: string;
  /** Polls as soon as the account's pace allows (new offers were announced). */
  pollSoon(): void;
  setFilters(filters: DriverFilters, updatedAt: number): void;
  readonly filtersUpdatedAt: number;
  /** Stops polling; resolves once a poll in flight has finished. */
  stop(): Promise<void>;
}

export function createDriverPoller(deps: {
  userId: string;
  session: PlatformSession;
  filters: DriverFilters;
  filtersUpdatedAt: number;
  wonBlocks: Block[];
  platform: DeliveryPlatform;
  options: PollerOptions;
  record(record: OfferRecord): void;
  /**
   * Trades an expired or refused session for a new one (and keeps it); throws the platform's
   * refusal ('code-required', 'unauthorized') when it will not.
   */
  refreshSession(userId: string, session: PlatformSession): Promise<PlatformSession>;
  /** The platform refused the refresh too: the driver has to connect again. */
  onUnauthorized(userId: string): void;
  /** The platform wants a new one-time code before this account polls again. */
  onCodeRequired(userId: string): void;
  /** The platform throttles this account's polls until `until` (epoch ms). */
  onThrottled?(userId: string, until: number): void;
  onError(error: unknown): void;
  now?: () => number;
  random?: () => number;
}): DriverPoller {
  const { userId, platform, options } = deps;
  let session = deps.session;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  let matcher: OfferMatcher = createOfferMatcher(deps.filters);
  let filtersUpdatedAt = deps.filtersUpdatedAt;
  const wonBlocks = deps.wonBlocks;
  // Offers already decided; an offer leaves the platform's list for good once it closes.
  const seen = new Set<string>();
  // First sights of offers whose accept failed and will be tried again.
  const retrying = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let dueAt = 0;
  let lastPollAt = 0;
  let blockedUntil = 0;
  let failures = 0;
  let polling = false;
  // Offers were announced while a poll was in flight: poll again as soon as the pace allows.
  let announced = false;
  let current: Promise<void> = Promise.resolve();
  let stopped = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    dueAt = now() + delay;
    timer = setTimeout(() => {
      timer = null;
      current = poll();
    }, delay);
  };

  const poll = async () => {
    if (polling || stopped) return;
    polling = true;
    lastPollAt = now();
    let delay = options.pollIntervalMs;
    try {
      const offers = await platform.listOffers(session);
      failures = 0;
      await decide(offers);
      delay = delayAfter({ kind: 'ok' }, options);
      if (announced)
        delay = Math.min(delay, Math.max(0, lastPollAt + options.minPollIntervalMs - now()));
    } catch (error) {
      if (error instanceof PlatformError && error.kind === 'throttled') {
        delay = delayAfter(
          { kind: 'throttled', retryAfterMs: error.retryAfterMs ?? 1000 },
          options,
        );
        blockedUntil = now() + delay;
        deps.onThrottled?.(userId, blockedUntil);
      } else if (
        error instanceof PlatformError &&
        (error.kind === 'unauthorized' || error.kind === 'session-expired')
      ) {
        // Refresh before giving up on the driver: only a refused refresh disconnects.
        try {
          session = await deps.refreshSession(userId, session);
          delay = 0;
        } catch (refusal) {
          if (refusal instanceof PlatformError && refusal.kind === 'code-required') {
            stopped = true;
            deps.onCodeRequired(userId);
          } else if (refusal instanceof PlatformError && refusal.kind === 'unauthorized') {
            stopped = true;
            deps.onUnauthorized(userId);
          } else {
            failures++;
            if (!(refusal instanceof PlatformError)) deps.onError(refusal);
            delay = delayAfter({ kind: 'failed', consecutiveFailures: failures }, options, random);
            blockedUntil = now() + delay;
          }
        }
      } else {
        failures++;
        if (!(error instanceof PlatformError)) deps.onError(error);
        delay = delayAfter({ kind: 'failed', consecutiveFailures: failures }, options, random);
        blockedUntil = now() + delay;
      }
    } finally {
      polling = false;
      announced = false;
    }
    schedule(delay);
  };

  const decide = async (offers: Awaited<ReturnType<DeliveryPlatform['listOffers']>>) => {
    // The poll answer is in: the moment every new offer in it was first seen.
    const at = now();
    const present = new Set<string>();
    const accepts: Promise<void>[] = [];
    for (const offer of offers) {
      present.add(offer.offerId);
      if (seen.has(offer.offerId)) continue;
      seen.add(offer.offerId);
      const decision = matcher(offer, { now: at, wonBlocks });
      const seenAt = retrying.get(offer.offerId) ?? at;
      retrying.delete(offer.offerId);
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
        platform.acceptOffer(session, offer.offerId).then(
          (outcome) => {
            if (outcome === 'gone') wonBlocks.splice(wonBlocks.indexOf(block), 1);
            deps.record({ ...base, acceptSentAt, answeredAt: now(), kind: outcome, reason: null });
          },
          () => {
            // Not decided: the accept failed (5xx or 429); try again on the next poll, keeping
            // the first sight for the offer's timeline.
            wonBlocks.splice(wonBlocks.indexOf(block), 1);
            seen.delete(offer.offerId);
            retrying.set(offer.offerId, seenAt);
          },
        ),
      );
    }
    for (const id of seen) if (!present.has(id)) seen.delete(id);
    for (const id of retrying.keys()) if (!present.has(id)) retrying.delete(id);
    await Promise.all(accepts);
    // Blocks that are over no longer matter for overlap.
    for (let i = wonBlocks.length - 1; i >= 0; i--) {
      if (wonBlocks[i]!.endTime <= at) wonBlocks.splice(i, 1);
    }
  };

  schedule(0);

  return {
    userId,
    get filtersUpdatedAt() {
      return filtersUpdatedAt;
    },
    pollSoon() {
      if (stopped) return;
      if (polling) {
        announced = true;
        return;
      }
      const at = now();
      const allowedAt = Math.max(blockedUntil, lastPollAt + options.minPollIntervalMs);
      if (allowedAt <= at) {
        if (timer) clearTimeout(timer);
        timer = null;
        current = poll();
      } else if (allowedAt < dueAt) {
        schedule(allowedAt - at);
      }
    },
    setFilters(filters, updatedAt) {
      matcher = createOfferMatcher(filters);
      filtersUpdatedAt = updatedAt;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      return current;
    },
  };
}
