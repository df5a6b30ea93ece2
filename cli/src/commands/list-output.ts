// How users and invitations print their rows: a paged table (20 to 100 rows a page), JSON, or
// streamed CSV. The flags are checked here once for both commands.
import { localTimeZone, paginate, ROWS_PER_PAGE } from '@blockcatch/sdk';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { flag } from '../flags.js';
import type { Translate } from '../i18n.js';
import {
  COLUMN_KEYS,
  columnTitles,
  displayRow,
  exportRow,
  type ListedRow,
} from '../output/columns.js';
import { writeCsv } from '../output/csv.js';
import { printJson } from '../output/json.js';
import { renderTable } from '../output/table.js';
import { say } from './setup.js';

export type ListFormat =
  | { kind: 'table'; page: number; rowsPerPage: number; all: boolean }
  | { kind: 'json' }
  | { kind: 'csv'; file?: string };

export function listFormat(
  options: Record<string, unknown>,
  fallback: 'table' | 'csv',
): ListFormat {
  if (options.json && options.csv !== undefined) {
    throw new UsageError('--json and --csv: choose one output format.');
  }
  if (options.json) return { kind: 'json' };
  if (options.csv !== undefined) {
    return typeof options.csv === 'string' ? { kind: 'csv', file: options.csv } : { kind: 'csv' };
  }
  if (fallback === 'csv') return { kind: 'csv' };
  return {
    kind: 'table',
    page: flag(
      '--page',
      z.coerce.number().int().min(1),
      options.page ?? '1',
      'give a page number from 1.',
    ),
    rowsPerPage: flag(
      '--rows-per-page',
      z.coerce.number().refine((n) => (ROWS_PER_PAGE as readonly number[]).includes(n)),
      options.rowsPerPage ?? '20',
      `use one of ${ROWS_PER_PAGE.join(', ')}.`,
    ),
    all: options.all === true,
  };
}

export async function printListed(
  rows: ListedRow[],
  format: ListFormat,
  t: Translate,
  meta: Record<string, unknown>,
): Promise<void> {
  const timeZone = localTimeZone();
  if (format.kind === 'json') {
    printJson({ ...meta, count: rows.length, items: rows });
    return;
  }
  if (format.kind === 'csv') {
    await writeCsv(rows, COLUMN_KEYS, (row) => exportRow(row, timeZone), format.file);
    return;
  }
  const page = format.all
    ? { items: rows, page: 1, pageCount: 1, total: rows.length }
    : paginate(rows, format.page, format.rowsPerPage);
  const titles = columnTitles(t);
  say(
    renderTable(
      COLUMN_KEYS.map((key) => titles[key]),
      page.items.map((row) => {
        const shown = displayRow(row, t, timeZone);
        return COLUMN_KEYS.map((key) => shown[key]);
      }),
    ),
  );
  say(
    t('cli.list.footer', {
      page: t('admin.userTable.page', { page: page.page }),
      pages: page.pageCount,
      total: page.total,
      size: format.all ? page.total : format.rowsPerPage,
    }),
  );
}
