// One way to print an instant: ISO 8601 with this computer's offset (`2026-12-01T09:00:00-05:00`),
// which scripts parse and people read as local time.
import { formatIsoDateTime, localTimeZone } from '@blockcatch/sdk';

export function isoTime(ts: number): string {
  return formatIsoDateTime(ts, localTimeZone());
}

/** Epoch-millisecond fields an answer uses for instants (`createdAt`, `sentAt`, `until`…). */
const INSTANT = /(At|Ts|until)$/;

/**
 * The same value with every instant field (a number under a name ending in At, Ts or `until`)
 * written as ISO 8601 with the offset, at any depth: what --json prints.
 */
export function withIsoTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withIsoTimes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      typeof v === 'number' && INSTANT.test(key) ? isoTime(v) : withIsoTimes(v),
    ]),
  );
}
