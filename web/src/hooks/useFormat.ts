// Dates, times, money and counts as a person reads them, through Intl in the interface language:
// "Dec 21, 2026" in English, "21 dic 2026" in Spanish. Phones go through the SDK's formatPhone.
// A driver's times are on the driver's saved zone (useDriverFormat.ts), marked with the zone when
// the device is on another one, so the same block never reads as two different hours.
import { formatPhone, localTimeZone } from '@blockcatch/sdk';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export interface Formatters {
  /** The zone every date and time is on. */
  timeZone: string;
  /** The zone's name ("Central Time") when it is not the device's, else null. */
  zoneName: string | null;
  /** "Dec 21, 2026" / "21 dic 2026". */
  date(ts: number): string;
  /** "Dec 21, 2026, 3:05 PM" / "21 dic 2026, 15:05", with "CST" when off the device's zone. */
  dateTime(ts: number): string;
  /** "3:05 PM" / "15:05", with "CST" when off the device's zone. */
  time(ts: number): string;
  /** "6:15 – 10:45 AM", with "CST" when off the device's zone. */
  timeRange(start: number, end: number): string;
  /** "Mon, Dec 21" / "lun, 21 dic". */
  weekday(ts: number): string;
  /** US dollars as Americans write them in either language: "$25.00". */
  money(amount: number): string;
  /** "1,234" / "1234". */
  count(value: number): string;
  /** "+1 (305) 555-0101", or the input as it came when it is not a US number. */
  phone(phoneNumber: string): string;
}

// The amounts are US dollars: "$25.00" reads the same to an English and a Spanish speaker in the
// US, where "25,00 US$" looks foreign.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatters(
  language: string,
  timeZone: string = localTimeZone(),
  deviceZone: string = localTimeZone(),
): Formatters {
  const elsewhere = !sameZone(timeZone, deviceZone);
  const zoneMark = elsewhere ? ({ timeZoneName: 'short' } as const) : {};
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone });
  const dateTime = new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    ...zoneMark,
  });
  const time = new Intl.DateTimeFormat(language, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    ...zoneMark,
  });
  const weekday = new Intl.DateTimeFormat(language, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone,
  });
  const count = new Intl.NumberFormat(language);
  const zoneName = elsewhere
    ? (new Intl.DateTimeFormat(language, { timeZone, timeZoneName: 'longGeneric' })
        .formatToParts(0)
        .find((part) => part.type === 'timeZoneName')?.value ?? timeZone)
    : null;
  return {
    timeZone,
    zoneName,
    date: (ts) => date.format(ts),
    dateTime: (ts) => dateTime.format(ts),
    time: (ts) => time.format(ts),
    timeRange: (start, end) => time.formatRange(start, Math.max(start, end)),
    weekday: (ts) => weekday.format(ts),
    money: (amount) => usd.format(amount),
    count: (value) => count.format(value),
    phone: (phoneNumber) => formatPhone(phoneNumber) || phoneNumber,
  };
}

/** Two names of one zone ("US/Central", "America/Chicago") are the same zone. */
function sameZone(a: string, b: string): boolean {
  if (a === b) return true;
  const resolved = (zone: string) =>
    new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  return resolved(a) === resolved(b);
}

/** The formatters for the interface language, on `timeZone` (the browser's unless told). */
export function useFormat(timeZone?: string): Formatters {
  const { i18n } = useTranslation();
  const zone = timeZone ?? localTimeZone();
  return useMemo(() => formatters(i18n.language, zone), [i18n.language, zone]);
}
