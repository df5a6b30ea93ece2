// The calendar's week: Monday to Sunday as ISO days (zone-free calendar arithmetic), the blocks of
// each day on the driver's zone, and the week's totals. Pure, so the page only draws.
import { formatIsoDay } from '@blockcatch/sdk';

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a `YYYY-MM-DD` day that exists (2026-02-30 does not). */
export function isIsoDay(text: string): boolean {
  const match = ISO_DAY.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** `isoDay` moved by `days` (negative: back). */
export function addDays(isoDay: string, days: number): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the week `isoDay` is in. */
export function weekStart(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(isoDay, -((weekday + 6) % 7));
}

/** The seven days, Monday first, of the week `isoDay` is in. */
export function weekDays(isoDay: string): string[] {
  const monday = weekStart(isoDay);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

interface Block {
  startTime: number;
  endTime: number;
  pay: number;
}

/** Each day's blocks (by the day they start on in `timeZone`), in start order; others left out. */
export function blocksByDay<T extends Block>(
  blocks: readonly T[],
  days: readonly string[],
  timeZone: string,
): Map<string, T[]> {
  const byDay = new Map<string, T[]>(days.map((day) => [day, []]));
  for (const block of blocks) byDay.get(formatIsoDay(block.startTime, timeZone))?.push(block);
  for (const list of byDay.values()) {
    list.sort((a, b) => a.startTime - b.startTime || a.endTime - b.endTime);
  }
  return byDay;
}

export interface WeekTotals {
  blocks: number;
  hours: number;
  pay: number;
}

/** How many blocks, how many hours and how much pay; pay summed in cents, so $0.10 × 3 is $0.30. */
export function weekTotals(blocks: readonly Block[]): WeekTotals {
  let cents = 0;
  let ms = 0;
  for (const block of blocks) {
    cents += Math.round(block.pay * 100);
    ms += Math.max(0, block.endTime - block.startTime);
  }
  return { blocks: blocks.length, hours: ms / 3_600_000, pay: cents / 100 };
}
