// The admin tables' columns for Flex, Spark and invitee rows: one list drives the
// table, the CSV and the review screen, so the three never disagree.
import {
  type FlexUser,
  formatDayShort,
  formatIsoDay,
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

/**
 * A row as people read it: phone '+1 (xxx) xxx-xxxx', ON/OFF, Yes/No, and the expiration day as
 * YYYY-MM-DD (tables) or as the review screen's documented DD/MM/YY ('short'), or None.
 */
export function displayRow(
  row: ListedRow,
  t: Translate,
  timeZone: string,
  dates: 'iso' | 'short',
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
        : (dates === 'iso' ? formatIsoDay : formatDayShort)(row.expirationDateTimestamp, timeZone),
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
      row.expirationDateTimestamp === null
        ? ''
        : formatIsoDay(row.expirationDateTimestamp, timeZone),
    status: row.status === null ? '' : row.status === 'start' ? 'ON' : 'OFF',
  };
}
