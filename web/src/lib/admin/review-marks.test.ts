import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  localMarks,
  marksFromSkipped,
  numbersKey,
  previewNumbers,
  selectableRows,
  withoutMarked,
} from './review-marks.js';
import { selectEvery } from './selection.js';

const rows = [
  { phoneNumber: '+13055550101' },
  { phoneNumber: '(305) 555-0102' },
  { phoneNumber: '555-01' },
  { phoneNumber: '+13055550103' },
];

describe('review marks', () => {
  it('marks a number that is not a US number as invalid, here, before asking the gateway', () => {
    expect([...localMarks(rows)]).toEqual([['555-01', 'invalid']]);
  });

  it("matches the gateway's skipped numbers (normalised) to the rows as listed", () => {
    const marks = marksFromSkipped(rows, [
      { number: '+13055550102', reason: 'opted-out' },
      { number: '+13055550103', reason: 'landline' },
    ]);
    expect([...marks]).toEqual([
      ['(305) 555-0102', 'opted-out'],
      ['+13055550103', 'landline'],
    ]);
  });

  it('never lets a marked row be selected or previewed', () => {
    fc.assert(
      fc.property(fc.subarray(rows.map((r) => r.phoneNumber)), (marked) => {
        const marks = new Map(marked.map((p) => [p, 'invalid' as const]));
        const selected = withoutMarked(selectEvery(rows), marks);
        for (const phone of marked) expect(selected.has(phone)).toBe(false);
        expect(selectableRows(rows, marks).length).toBe(rows.length - marked.length);
        const numbers = previewNumbers(rows, selectEvery(rows), marks).map((n) => n.number);
        for (const phone of marked) expect(numbers).not.toContain(phone);
      }),
    );
  });

  it('previews the selected numbers in list order, each number once', () => {
    const listed = [...rows, { phoneNumber: '3055550101' }];
    const selected = new Set(['+13055550103', '+13055550101', '3055550101']);
    expect(previewNumbers(listed, selected, new Map())).toEqual([
      { number: '+13055550101' },
      { number: '+13055550103' },
    ]);
  });

  it('keys a list of numbers by its content and order', () => {
    const a = [{ number: '+13055550101' }, { number: '+13055550102' }];
    expect(numbersKey(a)).toBe(numbersKey([...a]));
    expect(numbersKey(a)).not.toBe(numbersKey([...a].reverse()));
    expect(numbersKey(a)).not.toBe(numbersKey(a.slice(0, 1)));
  });
});
