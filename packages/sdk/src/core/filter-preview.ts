// "What would I have caught?": replays the offers a driver was shown under two sets of filters and
// compares what each would have taken (docs/product.md, 'What would I have caught?'). An estimate:
// every offer a set of filters accepts counts as won, although another driver may have taken it
// first, and offers never shown to the driver (system off, outside the schedule) are not there.
import { compareForTaking, createOfferMatcher, WON_BLOCKS_KEPT_MS } from './offers.js';
import type { Block, DriverFilters, Offer } from './schemas/driver.js';

const DAY_MS = 86_400_000;

/** The days looked back over when `options.days` is not given. */
export const PREVIEW_DAYS = 7;

/** An offer as the catcher recorded it: its facts and when the driver was shown it. */
export interface SeenOffer extends Offer {
  /** Epoch milliseconds the catcher first saw it; the time-buffer rule is judged then. */
  seenAt: number;
}

export interface PreviewOptions {
  /** Epoch milliseconds the look-back ends at. */
  now: number;
  /** How many days before `now` count; default `PREVIEW_DAYS`. */
  days?: number;
}

export interface CaughtTotals {
  /** Blocks these filters would have taken. */
  blocks: number;
  /** Their pay, in the filters' money (dollars), rounded to the cent. */
  pay: number;
}

export interface FilterPreview {
  current: CaughtTotals;
  proposed: CaughtTotals;
  /** proposed − current. */
  deltaBlocks: number;
  deltaPay: number;
  /** Offers in the look-back, whatever either set of filters made of them. */
  offersConsidered: number;
  /** The look-back: [from, to) in epoch milliseconds. */
  from: number;
  to: number;
  /** Always true: said beside every figure shown. */
  estimate: true;
}

/**
 * Compares `current` and `proposed` filters over the offers seen in the `days` before `now`.
 * Offers are replayed in the order they were seen, each decided as the catcher would have at that
 * moment, holding the blocks taken so far in the replay (so two overlapping offers count once).
 * Offers seen at the same instant came in one poll: like the catcher, the replay decides them
 * best-paying first (`compareForTaking`).
 */
export function previewFilters(
  offers: readonly SeenOffer[],
  current: DriverFilters,
  proposed: DriverFilters,
  options: PreviewOptions,
): FilterPreview {
  const to = options.now;
  const from = to - (options.days ?? PREVIEW_DAYS) * DAY_MS;
  const inRange = offers
    .filter((o) => o.seenAt >= from && o.seenAt < to)
    .sort((a, b) => a.seenAt - b.seenAt || compareForTaking(a, b));
  const before = replay(inRange, current);
  const after = current === proposed ? before : replay(inRange, proposed);
  return {
    current: before,
    proposed: after,
    deltaBlocks: after.blocks - before.blocks,
    deltaPay: cents(after.pay - before.pay),
    offersConsidered: inRange.length,
    from,
    to,
    estimate: true,
  };
}

/** What one set of filters takes from offers already in the order they were seen. */
function replay(offers: readonly SeenOffer[], filters: DriverFilters): CaughtTotals {
  const matcher = createOfferMatcher(filters);
  // Blocks over for longer than the hours caps look back neither overlap nor count against a
  // later offer; the catcher drops them too.
  let wonBlocks: Block[] = [];
  let blocks = 0;
  let pay = 0;
  for (const offer of offers) {
    if (wonBlocks.length > 32) {
      wonBlocks = wonBlocks.filter((b) => b.endTime > offer.seenAt - WON_BLOCKS_KEPT_MS);
    }
    if (!matcher(offer, { now: offer.seenAt, wonBlocks }).accept) continue;
    wonBlocks.push({ startTime: offer.startTime, endTime: offer.endTime });
    blocks++;
    pay += offer.pay;
  }
  return { blocks, pay: cents(pay) };
}

function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
