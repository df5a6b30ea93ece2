import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deselectRows,
  selectEvery,
  selectedRows,
  selectionState,
  selectRows,
  toggleSelected,
} from './selection.js';

const phones = fc.uniqueArray(fc.stringMatching(/^\+1\d{10}$/), { maxLength: 40 });
const rowsOf = (list: string[]) => list.map((phoneNumber) => ({ phoneNumber }));

describe('review selection', () => {
  it('starts with every row selected', () => {
    fc.assert(
      fc.property(phones, (list) => {
        const rows = rowsOf(list);
        expect(selectionState(selectEvery(rows), rows)).toEqual({
          count: rows.length,
          state: rows.length === 0 ? 'none' : 'all',
        });
      }),
    );
  });

  it('toggling a phone twice gives back the same selection', () => {
    fc.assert(
      fc.property(phones, fc.nat(), (list, pick) => {
        fc.pre(list.length > 0);
        const start = selectEvery(rowsOf(list));
        const phone = list[pick % list.length]!;
        expect(toggleSelected(start, phone).has(phone)).toBe(false);
        expect(toggleSelected(toggleSelected(start, phone), phone)).toEqual(start);
      }),
    );
  });

  it('select none on a searched list leaves rows outside the search as they were', () => {
    fc.assert(
      fc.property(phones, fc.nat(), (list, cut) => {
        const rows = rowsOf(list);
        const searched = rows.slice(0, cut % (rows.length + 1));
        const outside = rows.slice(searched.length);
        const after = deselectRows(selectEvery(rows), searched);
        expect(selectionState(after, searched).count).toBe(0);
        expect(selectionState(after, outside).count).toBe(outside.length);
        expect(selectRows(after, searched)).toEqual(selectEvery(rows));
      }),
    );
  });

  it('returns the selected rows in list order and never mutates the old set', () => {
    const rows = rowsOf(['+12025550001', '+12025550002', '+12025550003']);
    const all = selectEvery(rows);
    const some = toggleSelected(all, '+12025550002');
    expect(all.size).toBe(3);
    expect(selectedRows(rows, some).map((r) => r.phoneNumber)).toEqual([
      '+12025550001',
      '+12025550003',
    ]);
    expect(selectionState(some, rows).state).toBe('some');
  });
});
