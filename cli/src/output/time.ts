// One way to print an instant: ISO 8601 with this computer's offset (`2026-12-01T09:00:00-05:00`),
// which scripts parse and people read as local time.
import { formatIsoDateTime, localTimeZone } from '@blockcatch/sdk';

export function isoTime(ts: number): string {
  return formatIsoDateTime(ts, localTimeZone());
}
