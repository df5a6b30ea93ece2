// One exported row, the same from the gateway's streaming export and the CLI's own CSV: the admin
// table's columns under the fields' own names (as in JSON and the filter flags), for machines:
// `+1XXXXXXXXXX`, true/false, YYYY-MM-DD or empty, ON/OFF.
import { csvField } from './csv.js';
import { formatIsoDay } from './days.js';
import { normalizePhone } from './phone.js';
import type { MergedInvitee } from './schemas/invitations.js';
import type { FlexUser, SparkUser } from './schemas/users.js';

export type ExportedRow = FlexUser | SparkUser | MergedInvitee;

export const EXPORT_COLUMNS = [
  'name',
  'phoneNumber',
  'referral',
  'region',
  'goodStanding',
  'proxyInstalled',
  'setupComplete',
  'expirationDate',
  'status',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** Flex rows carry `humanRegion`, Spark rows `driverOptions.deliveryArea`. */
export function regionOf(row: ExportedRow): string | null {
  if ('driverOptions' in row) return row.driverOptions.deliveryArea;
  return row.humanRegion;
}

export function exportRow(row: ExportedRow, timeZone: string): Record<ExportColumn, string> {
  return {
    name: row.name,
    phoneNumber: phoneText(row),
    referral: row.referral ?? '',
    region: regionOf(row) ?? '',
    goodStanding: String(row.goodStanding),
    proxyInstalled: String(row.proxyInstalled),
    setupComplete: String(row.setupComplete),
    expirationDate: expirationText(row, timeZone),
    status: statusText(row),
  };
}

// The columns that are not the row's own value, shared by exportRow and exportCsvLine.
const phoneText = (row: ExportedRow) => normalizePhone(row.phoneNumber) ?? row.phoneNumber;
const expirationText = (row: ExportedRow, timeZone: string) =>
  row.expirationDateTimestamp === null ? '' : formatIsoDay(row.expirationDateTimestamp, timeZone);
const statusText = (row: ExportedRow) =>
  row.status === null ? '' : row.status === 'start' ? 'ON' : 'OFF';

/** The export's CSV header line. */
export const EXPORT_CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\n`;

/**
 * One exported row as a CSV line, what csvLine writes for `exportRow` (the text columns
 * neutralised against formulas): the export writes a million of these, so the fields go straight
 * into the line, and the columns that cannot start like a formula skip the check.
 */
export function exportCsvLine(row: ExportedRow, timeZone: string): string {
  // exportRow's fields, written straight into the line: no record object per row.
  return `${csvField(row.name)},${csvField(phoneText(row))},${csvField(row.referral ?? '')},${csvField(regionOf(row) ?? '')},${row.goodStanding},${row.proxyInstalled},${row.setupComplete},${expirationText(row, timeZone)},${statusText(row)}\n`;
}
