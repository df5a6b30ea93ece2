// CSV for machines, written by the SDK's csvLine (the one CSV writer: quoting and formula
// neutralisation as in every export), a header row, UTF-8, streamed row by row with backpressure, so
// a quarter of a million rows never become one string.
import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvLine } from '@blockcatch/sdk';

/** Writes `rows` (mapped one at a time by `toRecord`) as CSV to `file`, or stdout when absent. */
export async function writeCsv<T>(
  rows: Iterable<T>,
  columns: readonly string[],
  toRecord: (row: T) => Record<string, string>,
  file?: string,
): Promise<void> {
  const out: Writable = file ? createWriteStream(file, { encoding: 'utf8' }) : process.stdout;
  function* lines() {
    yield csvLine(columns);
    for (const row of rows) {
      const record = toRecord(row);
      yield csvLine(columns.map((column) => record[column] ?? ''));
    }
  }
  await pipeline(Readable.from(lines()), out, { end: file !== undefined });
}
