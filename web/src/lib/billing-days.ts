// The admin billing report read in the browser's time zone, and "today" on the browser's clock.
import { localTimeZone } from '@blockcatch/sdk';
import { gateway } from '../sdk.js';

/** Succeeded payments per day from `from` to `to` (days in the browser's zone). */
export function loadBilling(from: string, to: string) {
  return gateway.admin.billing({ from, to, timeZone: localTimeZone() });
}

/** Today as `YYYY-MM-DD` on the browser's wall clock. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
