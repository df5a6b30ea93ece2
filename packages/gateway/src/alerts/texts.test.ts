import { describe, expect, it } from 'vitest';
import { type AlertEvent, AT_ANY_HOUR, alertKey, alertText } from './texts.js';

const base = { timeZone: 'America/Chicago', baseUrl: 'https://app.example' };
// Tue 2026-12-01 14:00 in Chicago.
const AT = Date.UTC(2026, 11, 1, 20, 0);

const events: AlertEvent[] = [
  {
    kind: 'block-won',
    offerId: 'o1',
    station: 'Austin (DAU1)',
    startTime: AT,
    endTime: AT + 4 * 3_600_000,
    pay: 92.5,
    timeZone: 'America/Chicago',
  },
  { kind: 'needs-code', at: AT },
  { kind: 'disconnected', at: AT },
  { kind: 'throttled', until: AT },
  { kind: 'expiring', expiresAt: AT },
  { kind: 'payment-failed', paymentId: 'pay_1', amountCents: 5000 },
  {
    kind: 'weekly-digest',
    week: '2026-W49',
    change: { field: 'minHourlyPay', value: 22 },
    count: 7,
    pay: 420,
  },
  { kind: 'needs-verification', at: AT },
];

describe('alert texts', () => {
  it('fill every placeholder in both languages', () => {
    for (const language of ['en', 'es']) {
      for (const event of events) {
        const text = alertText(event, { ...base, language });
        expect(text).not.toMatch(/\{\{|\}\}/);
        expect(text.startsWith('BlockCatch')).toBe(true);
      }
    }
  });

  it('tell a won block in its station zone, with pay and the calendar link', () => {
    const text = alertText(events[0]!, { ...base, language: 'en' });
    expect(text).toBe(
      'BlockCatch: you won a block! Tue, Dec 1 2:00 PM-6:00 PM at Austin (DAU1), $92.50. Calendar: https://app.example/flex/calendar',
    );
  });

  it('say the weekly estimate as the product promises it', () => {
    expect(alertText(events[6]!, { ...base, language: 'en' })).toContain(
      'lowering your minimum to $22/h would have caught 7 more blocks worth $420',
    );
  });

  it('send the driver to the dashboard to say they completed the check in the app, in Spanish too', () => {
    const check = { kind: 'needs-verification', at: AT } as const;
    expect(alertText(check, { ...base, language: 'en' })).toContain(
      "press I've done it: https://app.example/flex/dashboard",
    );
    expect(alertText(check, { ...base, language: 'es' })).toContain(
      'pulsa Ya lo hice: https://app.example/flex/dashboard',
    );
  });

  it('send news at any hour and let reminders wait for quiet hours', () => {
    expect([...AT_ANY_HOUR].sort()).toEqual(
      ['block-won', 'disconnected', 'needs-code', 'needs-verification', 'throttled'].sort(),
    );
    expect(AT_ANY_HOUR.has('expiring')).toBe(false);
    expect(AT_ANY_HOUR.has('payment-failed')).toBe(false);
    expect(AT_ANY_HOUR.has('weekly-digest')).toBe(false);
  });

  it('key each event once: the same event, the same key; another event, another key', () => {
    const keys = events.map(alertKey);
    expect(new Set(keys).size).toBe(events.length);
    expect(alertKey({ kind: 'throttled', until: AT })).toBe(
      alertKey({ kind: 'throttled', until: AT }),
    );
  });
});
