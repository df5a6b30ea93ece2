// The admin tables' columns for Flex, Spark and invitee rows: one list drives the
// table, the CSV and the review screen, so the three never disagree.
import {
  EXPORT_COLUMNS,
  type ExportColumn,
  type ExportedRow,
  exportRow,
  formatDayShort,
  formatIsoDay,
  formatPhone,
  regionOf,
} from '@blockcatch/sdk';
import type { Translate } from '../i18n.js';

export type ListedRow = ExportedRow;

/** The CSV and the gateway's export share these columns and `exportRow` (SDK). */
export const COLUMN_KEYS = EXPORT_COLUMNS;
export type ColumnKey = ExportColumn;
export { exportRow };

/** On a narrow terminal these columns give way first, in this order; name and phone always stay. */
export const DROP_ORDER = (
  [
    'referral',
    'setupComplete',
    'proxyInstalled',
    'region',
    'status',
    'goodStanding',
    'expirationDate',
  ] as const satisfies readonly ColumnKey[]
).map((key) => COLUMN_KEYS.indexOf(key));

/** Who a row is: the last columns to shrink on a narrow terminal. */
export const WHO = (['name', 'phoneNumber'] as const satisfies readonly ColumnKey[]).map((key) =>
  COLUMN_KEYS.indexOf(key),
);

/** Each field's label in the web's user table: tables and the review title columns with these. */
const LABELS: Record<ColumnKey, string> = {
  name: 'name',
  phoneNumber: 'phone',
  referral: 'referral',
  region: 'region',
  goodStanding: 'goodStanding',
  proxyInstalled: 'accountConnected',
  setupComplete: 'filtersComplete',
  expirationDate: 'expirationDate',
  status: 'status',
};

export function columnTitles(t: Translate): Record<ColumnKey, string> {
  return Object.fromEntries(
    COLUMN_KEYS.map((key) => [key, t(`admin.userTable.columns.${LABELS[key]}`) as string]),
  ) as Record<ColumnKey, string>;
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
    phoneNumber: formatPhone(row.phoneNumber) || row.phoneNumber,
    referral: row.referral ?? '',
    region: regionOf(row) ?? '',
    goodStanding: yesNo(row.goodStanding),
    proxyInstalled: yesNo(row.proxyInstalled),
    setupComplete: yesNo(row.setupComplete),
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
