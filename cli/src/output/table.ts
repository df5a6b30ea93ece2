// Tables for people: cli-table3, plain borders when colour is off (NO_COLOR, not a terminal).
import Table from 'cli-table3';
import { colorEnabled } from '../terminal.js';

export function renderTable(
  head: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): string {
  const color = colorEnabled();
  const table = new Table({
    head: [...head],
    style: color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
  });
  for (const row of rows) table.push([...row]);
  return table.toString();
}
