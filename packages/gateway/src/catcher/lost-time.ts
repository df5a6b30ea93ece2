// Which stretches of trouble the catcher met are lost time for credit for lost hours
// (docs/product.md): the platform failing enough polls in a row, or throttling long enough.
import type { LostStretch } from '@blockcatch/sdk';
import type { PollTrouble } from './driver-polling.js';

export interface LostTimeRules {
  /** Failed polls in a row that make a platform outage (from the first to the next answer). */
  failuresToCount: number;
  /** Throttling without a break at least this long is lost time, all of it. */
  throttleMinMs: number;
}

export function lostStretchOf(trouble: PollTrouble, rules: LostTimeRules): LostStretch | null {
  if (!(trouble.end > trouble.start)) return null;
  if (trouble.kind === 'failing') {
    return trouble.failures >= rules.failuresToCount
      ? { start: trouble.start, end: trouble.end, reason: 'platform-outage' }
      : null;
  }
  return trouble.end - trouble.start >= rules.throttleMinMs
    ? { start: trouble.start, end: trouble.end, reason: 'throttled' }
    : null;
}
