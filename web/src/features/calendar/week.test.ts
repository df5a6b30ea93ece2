import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, blocksByDay, isIsoDay, weekDays, weekStart, weekTotals } from './week.js';

const isoDay = fc
  .date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2090-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

describe('the calendar week', () => {
  it('runs Monday to Sunday, holds the day it was asked for, and moves a week at a time', () => {
    fc.assert(
      fc.property(isoDay, (day) => {
        const days = weekDays(day);
        expect(days).toHaveLength(7);
        expect(days).toContain(day);
        expect(new Date(`${days[0]}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(days.every(isIsoDay)).toBe(true);
        expect(weekStart(addDays(day, 7))).toBe(addDays(weekStart(day), 7));
        expect(addDays(addDays(day, 7), -7)).toBe(day);
      }),
    );
  });

  it('knows a real day from a made-up one', () => {
    expect(isIsoDay('2026-11-26')).toBe(true);
    expect(isIsoDay('2026-02-30')).toBe(false);
    expect(isIsoDay('26-11-2026')).toBe(false);
  });

  it('puts each block of the week on the day it starts in the zone, once, and totals them', () => {
    const zone = 'America/Chicago';
    const monday = '2026-11-23';
    const days = weekDays(monday);
    const weekFrom = Date.parse('2026-11-23T06:00:00Z'); // Monday 00:00 in Chicago
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            startTime: fc.integer({ min: weekFrom, max: weekFrom + 7 * 86_400_000 - 1 }),
            length: fc.integer({ min: 0, max: 12 * 3_600_000 }),
            pay: fc.integer({ min: 0, max: 50_000 }).map((c) => c / 100),
          }),
          { maxLength: 30 },
        ),
        (raw) => {
          const blocks = raw.map((b) => ({ ...b, endTime: b.startTime + b.length }));
          const byDay = blocksByDay(blocks, days, zone);
          const placed = [...byDay.values()].flat();
          expect(placed).toHaveLength(blocks.length);
          for (const [day, list] of byDay) {
            for (const block of list) {
              const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(
                block.startTime,
              );
              expect(local).toBe(day);
            }
            expect(list.map((b) => b.startTime)).toEqual(
              [...list.map((b) => b.startTime)].sort((a, b) => a - b),
            );
          }
          const totals = weekTotals(blocks);
          expect(totals.blocks).toBe(blocks.length);
          expect(totals.hours * 3_600_000).toBeCloseTo(
            blocks.reduce((sum, b) => sum + b.length, 0),
            3,
          );
          expect(Math.round(totals.pay * 100)).toBe(
            blocks.reduce((sum, b) => sum + Math.round(b.pay * 100), 0),
          );
        },
      ),
    );
  });
});
