// Dates, times, money and counts as a person reads them, through Intl in the interface language:
// "Dec 21, 2026" in English, "21 dic 2026" in Spanish. Phones go through the SDK's formatPhone.
import { formatPhone, localTimeZone } from '@blockcatch/sdk';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export interface Formatters {
  /** "Dec 21, 2026" / "21 dic 2026". */
  date(ts: number): string;
  /** "Dec 21, 2026, 3:05 PM" / "21 dic 2026, 15:05". */
  dateTime(ts: number): string;
  /** "3:05 PM" / "15:05". */
  time(ts: number): string;
  /** "Mon, Dec 21" / "lun, 21 dic". */
  weekday(ts: number): string;
  /** "$25.00" / "25,00 US$". */
  money(amount: number): string;
  /** "1,234" / "1234". */
  count(value: number): string;
  /** "+1 (305) 555-0101", or the input as it came when it is not a US number. */
  phone(phoneNumber: string): string;
}

export function formatters(language: string, timeZone: string = localTimeZone()): Formatters {
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone });
  const dateTime = new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  const time = new Intl.DateTimeFormat(language, { timeStyle: 'short', timeZone });
  const weekday = new Intl.DateTimeFormat(language, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone,
  });
  const money = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' });
  const count = new Intl.NumberFormat(language);
  return {
    date: (ts) => date.format(ts),
    dateTime: (ts) => dateTime.format(ts),
    time: (ts) => time.format(ts),
    weekday: (ts) => weekday.format(ts),
    money: (amount) => money.format(amount),
    count: (value) => count.format(value),
    phone: (phoneNumber) => formatPhone(phoneNumber) || phoneNumber,
  };
}

/** The formatters for the interface language, on `timeZone` (the browser's unless told). */
export function useFormat(timeZone?: string): Formatters {
  const { i18n } = useTranslation();
  const zone = timeZone ?? localTimeZone();
  return useMemo(() => formatters(i18n.language, zone), [i18n.language, zone]);
}
