// Tables: who a row is (name, phone) stays readable longest at a terminal, and off a terminal a
// table is tab-separated with nothing cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitColumns, keptColumns, renderTable } from './table.js';

const NARROWEST = 4;

describe('fitColumns', () => {
  it('shrinks the Yes/No columns below their long headers before it cuts a name or a phone', () => {
    // name, phone, then three Yes/No columns titled like the admin table.
    const natural = [24, 17, 17, 16, 13];
    const headers = [4, 5, 17, 16, 13];
    const widths = fitColumns(natural, headers, 60, [0, 1]);
    expect(widths.slice(0, 2)).toEqual([24, 17]);
    expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60);
  });

  it('fits any budget it can, and cuts a protected column only when the others are as narrow as they go', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 2, maxLength: 9 }),
        fc.integer({ min: 0, max: 400 }),
        (natural, budget) => {
          const headers = natural.map((n) => Math.min(n, 10));
          const widths = fitColumns(natural, headers, budget, [0]);
          const floor = natural.reduce((sum, n) => sum + Math.min(n, NARROWEST), 0);
          if (budget >= floor)
            expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(budget);
          if (widths[0]! < natural[0]!) {
            for (let i = 1; i < natural.length; i++) {
              expect(widths[i]).toBe(Math.min(natural[i]!, NARROWEST));
            }
          }
          for (const [i, w] of widths.entries()) expect(w).toBeLessThanOrEqual(natural[i]!);
        },
      ),
    );
  });
});

describe('keptColumns', () => {
  it('leaves out Yes/No columns before it would cut a name, a phone or a header', () => {
    // name, phone, then the admin table's long-titled Yes/No columns, dropped last to first.
    const natural = [20, 17, 17, 16, 13];
    const headers = [4, 5, 17, 16, 13];
    const frame = { gap: 1, edge: 3 };
    const at = (width: number) =>
      keptColumns(natural, headers, { width, dropOrder: [4, 3, 2], lastToShrink: [0, 1] }, frame);
    expect(at(200)).toEqual([0, 1, 2, 3, 4]);
    // Whole: 3 + 21 + 18 + 18 + 17 + 14 = 91.
    expect(at(91)).toEqual([0, 1, 2, 3, 4]);
    expect(at(90)).toEqual([0, 1, 2, 3]);
    expect(at(60)).toEqual([0, 1, 2]);
    expect(at(20)).toEqual([0, 1]);
  });
});

describe('renderTable off a terminal', () => {
  it('writes tab-separated rows with the header, no borders, nothing cut, every column', () => {
    const long = 'Patricia Alejandra Montenegro de la Vega';
    const { text, hiddenColumns } = renderTable(
      ['Name', 'Phone', 'Account connected'],
      [
        [long, '+1 (305) 555-1000', 'Yes'],
        ['Tab\there', '+1 (305) 555-1001', 'No'],
      ],
      { width: 40, dropOrder: [2], plain: true },
    );
    expect(text.split('\n')).toEqual([
      'Name\tPhone\tAccount connected',
      `${long}\t+1 (305) 555-1000\tYes`,
      'Tab here\t+1 (305) 555-1001\tNo',
    ]);
    expect(hiddenColumns).toBe(0);
  });

  it('draws a bordered table that fits at a terminal', () => {
    const { text } = renderTable(
      ['Name', 'Phone'],
      [['Patricia Alejandra Montenegro', '+1 (305) 555-1000']],
      { width: 40, plain: false, lastToShrink: [0, 1] },
    );
    expect(text).toContain('│');
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
  });
});
