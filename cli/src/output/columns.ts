// The admin tables' columns (SPEC section 2) for Flex, Spark and invitee rows: one list drives the
// table, the CSV and the review screen, so the three never disagree.
import {
  type FlexUser,
  formatDayShort,
  formatPhone,
  type MergedInvitee,
  normalizePhone,
  type SparkUser,
} from '@blockcatch/sdk';
import type { Translate } from '../i18n.js';

export type ListedRow = FlexUser | SparkUser | MergedInvitee;

export const COLUMN_KEYS = [
  'name',
  'phone',
  'referral',
  'region',
  'goodStanding',
  'accountConnected',
  'filtersComplete',
  'expirationDate',
  'status',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

export function regionOf(row: ListedRow): string | null {
  if ('driverOptions' in row) return row.driverOptions.deliveryArea;
  return row.humanRegion;
}

export function columnTitles(t: Translate): Record<ColumnKey, string> {
  const title = (key: ColumnKey) =>
    t(`admin.userTable.columns.${key === 'phone' ? 'phone' : key}`) as string;
  return Object.fromEntries(COLUMN_KEYS.map((key) => [key, title(key)])) as Record<
    ColumnKey,
    string
  >;
}

/** A row as the screens show it: phone '+1 (xxx) xxx-xxxx', DD/MM/YY or None, ON/OFF, Yes/No. */
export function displayRow(
  row: ListedRow,
  t: Translate,
  timeZone: string,
): Record<ColumnKey, string> {
  const yesNo = (flag: boolean) => (flag ? t('common.yes') : t('common.no')) as string;
  const none = t('admin.userTable.none') as string;
  return {
    name: row.name,
    phone: formatPhone(row.phoneNumber) || row.phoneNumber,
    referral: row.referral ?? '',
    region: regionOf(row) ?? '',
    goodStanding: yesNo(row.goodStanding),
    accountConnected: yesNo(row.proxyInstalled),
    filtersComplete: yesNo(row.setupComplete),
    expirationDate:
      row.expirationDateTimestamp === null
        ? none
        : formatDayShort(row.expirationDateTimestamp, timeZone),
    status:
      row.status === null
        ? none
        : ((row.status === 'start' ? t('admin.userTable.on') : t('admin.userTable.off')) as string),
  };
}

/** A row for machines (CSV): `+1XXXXXXXXXX`, true/false, YYYY-MM-DD or empty, ON/OFF. */
export function exportRow(row: ListedRow, timeZone: string): Record<ColumnKey, string> {
  return {
    name: row.name,
    phone: normalizePhone(row.phoneNumber) ?? row.phoneNumber,
    referral: row.referral ?? '',
    region: regionOf(row) ?? '',
    goodStanding: String(row.goodStanding),
    accountConnected: String(row.proxyInstalled),
    filtersComplete: String(row.setupComplete),
    expirationDate:
      row.expirationDateTimestamp === null ? '' : isoDay(row.expirationDateTimestamp, timeZone),
    status: row.status === null ? '' : row.status === 'start' ? 'ON' : 'OFF',
  };
}

const isoFormatters = new Map<string, Intl.DateTimeFormat>();
const isoDays = new Map<string, Map<number, string>>();
// Zone changes fall on quarter hours, so every instant of a quarter hour has the same local day:
// Intl formatting once per quarter hour instead of once per row keeps large exports fast.
const QUARTER_HOUR = 900_000;

function isoDay(ts: number, timeZone: string): string {
  let days = isoDays.get(timeZone);
  if (!days) {
    days = new Map();
    isoDays.set(timeZone, days);
  }
  const bucket = Math.floor(ts / QUARTER_HOUR);
  let day = days.get(bucket);
  if (day === undefined) {
    let format = isoFormatters.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      isoFormatters.set(timeZone, format);
    }
    day = format.format(ts);
    days.set(bucket, day);
  }
  return day;
}
