// How users and invitations print their rows: a paged table that fits the terminal (the admin
// tables' paging), or JSON and CSV streamed from the gateway's export. The flags are checked here
// once for both commands.
import { statSync } from 'node:fs';
import {
  flexUserSchema,
  localTimeZone,
  mergedInviteeSchema,
  paginate,
  ROWS_PER_PAGE,
  sparkUserSchema,
  type UsersExport,
} from '@blockcatch/sdk';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { ListOutputFlags, TableOutputFlags } from '../flag-sets.js';
import { flag } from '../flags.js';
import { type Translate, t as translate } from '../i18n.js';
import { note, say } from '../setup.js';
import { tablesForPeople } from '../terminal.js';
import {
  COLUMN_KEYS,
  columnTitles,
  DROP_ORDER,
  displayRow,
  type ListedRow,
  WHO,
} from './columns.js';
import { writeExport } from './export-stream.js';
import { renderTable, terminalWidth } from './table.js';
import { throttledLines } from './throttle.js';

/** The fields a row has in JSON: the SDK's names, which `--json a,b` picks from. */
const JSON_FIELDS = new Set([
  ...Object.keys(flexUserSchema.shape),
  ...Object.keys(sparkUserSchema.shape),
  ...Object.keys(mergedInviteeSchema.shape),
]);

function jsonFields(value: string): string[] {
  const fields = value
    .slice(0, 1000)
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = fields.filter((f) => !JSON_FIELDS.has(f));
  if (fields.length === 0 || unknown.length > 0) {
    throw new UsageError(
      translate('cli.errors.jsonFields', {
        unknown: unknown.join(', ') || value,
        fields: [...JSON_FIELDS].sort().join(', '),
      }),
    );
  }
  return fields;
}

export type ListFormat =
  | { kind: 'table'; page: number; rowsPerPage: number; all: boolean; wide: boolean }
  | { kind: 'json'; fields?: string[] }
  | { kind: 'csv'; file?: string };

/** How a list prints: `--json` alone or with fields, `--csv` to stdout or a file, or a table page. */
export function listFormat(
  options: ListOutputFlags & Partial<TableOutputFlags>,
  fallback: 'table' | 'csv',
): ListFormat {
  const t = translate;
  if (options.json && options.csv !== undefined) throw new UsageError(t('cli.errors.jsonOrCsv'));
  if (typeof options.json === 'string') return { kind: 'json', fields: jsonFields(options.json) };
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
      t('cli.errors.pageFix'),
    ),
    rowsPerPage: flag(
      '--rows-per-page',
      z.coerce.number().refine((n) => (ROWS_PER_PAGE as readonly number[]).includes(n)),
      options.rowsPerPage ?? '20',
      t('cli.errors.rowsPerPageFix', { sizes: ROWS_PER_PAGE.join(', ') }),
    ),
    all: options.all === true,
    wide: options.wide === true,
  };
}

/**
 * Writes a streamed export as CSV or one JSON document (`meta`, `items`, `count`), with a progress
 * line on stderr every few seconds while it runs, and what was written when it went to a file.
 */
export async function streamListed(
  answer: UsersExport,
  format: Exclude<ListFormat, { kind: 'table' }>,
  t: Translate,
  meta: Record<string, unknown>,
): Promise<void> {
  const progress = throttledLines(note);
  const file = format.kind === 'csv' ? format.file : undefined;
  const count = await writeExport(
    answer,
    {
      format: format.kind,
      ...(file !== undefined ? { file } : {}),
      ...(format.kind === 'json' && format.fields ? { fields: format.fields } : {}),
      meta,
    },
    (rows) => progress(() => t('cli.export.progress', { count: rows })),
  );
  if (file !== undefined) reportWritten(t, count, file);
}

export function printListed(
  rows: ListedRow[],
  format: Extract<ListFormat, { kind: 'table' }>,
  t: Translate,
): void {
  const timeZone = localTimeZone();
  const pageCount = Math.max(1, Math.ceil(rows.length / format.rowsPerPage));
  if (!format.all && format.page > pageCount) {
    throw new UsageError(
      t('cli.errors.pastLastPage', {
        page: format.page,
        count: pageCount,
        size: format.rowsPerPage,
      }),
    );
  }
  const page = format.all
    ? { items: rows, page: 1, pageCount: 1, total: rows.length }
    : paginate(rows, format.page, format.rowsPerPage);
  const titles = columnTitles(t);
  const table = renderTable(
    COLUMN_KEYS.map((key) => titles[key]),
    page.items.map((row) => {
      const shown = displayRow(row, t, timeZone, 'iso');
      return COLUMN_KEYS.map((key) => shown[key]);
    }),
    format.wide
      ? { width: Number.POSITIVE_INFINITY }
      : { width: terminalWidth(), dropOrder: DROP_ORDER, lastToShrink: WHO },
  );
  say(table.text);
  if (table.hiddenColumns > 0) note(t('cli.list.hidden', { count: table.hiddenColumns }));
  // Off a terminal stdout is the rows alone; the page line goes to stderr.
  (tablesForPeople() ? say : note)(
    t('cli.list.footer', {
      page: t('admin.userTable.page', { page: page.page }),
      pages: page.pageCount,
      total: page.total,
      size: format.all ? page.total : format.rowsPerPage,
    }),
  );
}

/** `export --csv FILE` says what it wrote, on stderr, so stdout stays data. */
export function reportWritten(t: Translate, count: number, file: string): void {
  const bytes = statSync(file).size;
  const size =
    bytes < 1024
      ? `${bytes} B`
      : bytes < 1_048_576
        ? `${(bytes / 1024).toFixed(1)} KB`
        : `${(bytes / 1_048_576).toFixed(1)} MB`;
  note(t('cli.export.wrote', { count, file, size }));
}
