// The admin billing report: succeeded payments between two calendar days in a time zone, totalled
// per day. Day bounds come from the SDK's zone arithmetic, so 23- and 25-hour days count right.
import { type BillingResponse, endOfDay, startOfDay } from '@blockcatch/sdk';
import type { BilledPayment } from '../storage/payments.js';
import { toPayment } from '../storage/payments.js';

export const MAX_REPORT_DAYS = 366;

/** Every `YYYY-MM-DD` from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export function billingReport(
  payments: readonly BilledPayment[],
  range: { from: string; to: string; timeZone: string },
): BillingResponse {
  const days = daysBetween(range.from, range.to).map((day) => ({
    day,
    start: startOfDay(day, range.timeZone),
    end: endOfDay(day, range.timeZone),
    payments: 0,
    weeks: 0,
    amountCents: 0,
  }));
  for (const p of payments) {
    const settled = p.settled_ts ?? p.created_ts;
    const bucket = days.find((d) => settled >= d.start && settled < d.end);
    if (!bucket) continue;
    bucket.payments += 1;
    bucket.weeks += p.weeks;
    bucket.amountCents += p.amount_cents;
  }
  const totals = { payments: 0, weeks: 0, amountCents: 0 };
  for (const d of days) {
    totals.payments += d.payments;
    totals.weeks += d.weeks;
    totals.amountCents += d.amountCents;
  }
  return {
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    totals,
    days: days.map(({ day, payments: n, weeks, amountCents }) => ({
      day,
      payments: n,
      weeks,
      amountCents,
    })),
    Items: payments.map((p) => ({ ...toPayment(p), name: p.name, phoneNumber: p.phone_number })),
  };
}
