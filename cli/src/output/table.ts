// Tables for people: cli-table3 sized to the terminal (process.stdout.columns, 80 when unknown),
// no rule between rows, long cells cut with an ellipsis, the columns that say who a row is (name,
// phone) the last to shrink; `wide` keeps every column whole. Off a terminal a table is for
// programs, as gh prints it: tab-separated, no borders, every column, nothing cut.
import Table from 'cli-table3';
import { colorEnabled, tablesForPeople } from '../terminal.js';

/** Cell padding (one space each side) plus the column's share of the borders. */
const PADDING = 2;
const NARROWEST = 4;

export interface TableLayout {
  /** Columns the table may use; `Infinity` with --wide. */
  width: number;
  /**
   * Column indexes in the order they are left out when even their headers do not fit; columns not
   * listed always stay. The caller says how many were left out (`hiddenColumns`).
   */
  dropOrder?: readonly number[];
  /** Column indexes that shrink only once every other column is as narrow as it goes. */
  lastToShrink?: readonly number[];
  /** Tab-separated rows (default: unless tables are for people, terminal.ts). */
  plain?: boolean;
}

/** A table's frame: what each column adds to its cells' width, and what the row adds once. */
export interface TableFrame {
  gap: number;
  edge: number;
}

/** cli-table3's bordered table: a space either side of each cell and a border after it. */
const BORDERED: TableFrame = { gap: PADDING + 1, edge: 1 };

/** A name or phone longer than this is cut rather than cost the table another column. */
const WHO_WIDEST = 30;

/**
 * Which columns a table of `width` keeps: headers whole and the columns that say who a row is
 * (`lastToShrink`) whole up to WHO_WIDEST, dropping per `dropOrder` until they fit.
 */
export function keptColumns(
  natural: readonly number[],
  headers: readonly number[],
  layout: TableLayout,
  frame: TableFrame = BORDERED,
): number[] {
  const kept = natural.map((_, i) => i);
  const who = new Set(layout.lastToShrink ?? []);
  const least = (i: number) =>
    Math.min(natural[i]!, Math.max(who.has(i) ? WHO_WIDEST : headers[i]!, NARROWEST));
  const need = (columns: number[]) =>
    columns.reduce((sum, i) => sum + least(i) + frame.gap, frame.edge);
  for (const drop of layout.dropOrder ?? []) {
    if (need(kept) <= layout.width) break;
    kept.splice(kept.indexOf(drop), 1);
  }
  return kept;
}

/** The terminal's width: stdout's own, else COLUMNS, else 80. */
export function terminalWidth(
  stream: { columns?: number } = process.stdout,
  env = process.env,
): number {
  const fromEnv = Number(env.COLUMNS);
  return stream.columns || (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80);
}

/**
 * Content widths whose sum fits `budget`: the widest columns give way first, and no column shrinks
 * below its header while the others can give, so titles stay whole whenever there is room. Columns
 * in `lastToShrink` give way only after all the others are as narrow as they go.
 */
export function fitColumns(
  natural: readonly number[],
  headers: readonly number[],
  budget: number,
  lastToShrink: readonly number[] = [],
): number[] {
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) - budget;
  const protectedColumns = new Set(lastToShrink);
  const atHeader = (i: number) => Math.max(headers[i] ?? 0, NARROWEST);
  const phases: { floor: (i: number) => number; may: (i: number) => boolean }[] = [
    { floor: atHeader, may: (i) => !protectedColumns.has(i) },
    { floor: () => NARROWEST, may: (i) => !protectedColumns.has(i) },
    { floor: atHeader, may: () => true },
    { floor: () => NARROWEST, may: () => true },
  ];
  for (const { floor, may } of phases) {
    while (excess > 0) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (!may(i) || widths[i]! <= floor(i)) continue;
        if (widest < 0 || widths[i]! > widths[widest]!) widest = i;
      }
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  return widths;
}

/** A cell as one tab-separated field: tabs and line breaks inside it become spaces. */
const plainCell = (text: string) => text.replace(/[\t\r\n]+/g, ' ');

export interface RenderedTable {
  text: string;
  /** Columns left out for want of width: --wide shows them, --json and --csv always have them. */
  hiddenColumns: number;
}

export function renderTable(
  allHead: readonly string[],
  allRows: ReadonlyArray<readonly string[]>,
  layout: TableLayout = { width: terminalWidth() },
): RenderedTable {
  if (layout.plain ?? !tablesForPeople()) {
    const lines = [allHead, ...allRows].map((row) => row.map(plainCell).join('\t'));
    return { text: lines.join('\n'), hiddenColumns: 0 };
  }
  const color = colorEnabled();
  const length = (text: string) => [...text].length;
  const allNatural = allHead.map((h, i) =>
    allRows.reduce((max, row) => Math.max(max, length(row[i] ?? '')), length(h)),
  );
  const kept = keptColumns(
    allNatural,
    allHead.map((h) => length(h)),
    layout,
  );
  const head = kept.map((i) => allHead[i]!);
  const rows = allRows.map((row) => kept.map((i) => row[i] ?? ''));
  const natural = kept.map((i) => allNatural[i]!);
  // Each column pads one space either side; the borders take one column more than there are.
  const budget = layout.width - (head.length + 1) - PADDING * head.length;
  const widths = fitColumns(
    natural,
    head.map((h) => length(h)),
    budget,
    (layout.lastToShrink ?? []).flatMap((i) => (kept.includes(i) ? [kept.indexOf(i)] : [])),
  );
  const table = new Table({
    head: [...head],
    colWidths: widths.map((w) => w + PADDING),
    wordWrap: false,
    truncate: '…',
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
  });
  for (const row of rows) table.push(row);
  // One rule under the header, none between rows: cli-table3 draws both with the same characters.
  const [top = '', header = '', ...body] = table.toString().split('\n');
  const rule = top.replace('┌', '├').replace('┐', '┤').replaceAll('┬', '┼');
  const text = [top, header, ...(rows.length > 0 ? [rule] : []), ...body].join('\n');
  return { text, hiddenColumns: allHead.length - kept.length };
}
