// CSV for machines: csv-stringify, a header row, UTF-8, streamed row by row with backpressure, so a
// quarter of a million rows never become one string.
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';

/** Writes `rows` (mapped one at a time by `toRecord`) as CSV to `file`, or stdout when absent. */
export async function writeCsv<T>(
  rows: Iterable<T>,
  columns: readonly string[],
  toRecord: (row: T) => Record<string, string>,
  file?: string,
): Promise<void> {
  const out: Writable = file ? createWriteStream(file, { encoding: 'utf8' }) : process.stdout;
  const stringifier = stringify({ header: true, columns: [...columns] });
  const done = pipeline(stringifier, out, { end: file !== undefined });
  for (const row of rows) {
    if (!stringifier.write(toRecord(row))) {
      await new Promise<void>((resolve) => stringifier.once('drain', resolve));
    }
  }
  stringifier.end();
  await done;
}
