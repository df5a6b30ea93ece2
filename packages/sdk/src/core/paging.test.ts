import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROWS_PER_PAGE, paginate, ROWS_PER_PAGE } from './paging.js';

const rows = fc.array(fc.nat(), { maxLength: 300 });
const size = fc.oneof(fc.constantFrom(...ROWS_PER_PAGE), fc.integer({ min: 1, max: 50 }));

describe('paginate', () => {
  it('slices 45 rows into pages of 20, 20 and 5', () => {
    const list = Array.from({ length: 45 }, (_, i) => i);
    expect(paginate(list, 1, 20)).toEqual({
      items: list.slice(0, 20),
      page: 1,
      pageCount: 3,
      total: 45,
    });
    expect(paginate(list, 3, 20)).toEqual({
      items: list.slice(40),
      page: 3,
      pageCount: 3,
      total: 45,
    });
  });

  it('shows an empty list as page 1 of 1 with no items', () => {
    expect(paginate([], 1, DEFAULT_ROWS_PER_PAGE)).toEqual({
      items: [],
      page: 1,
      pageCount: 1,
      total: 0,
    });
    expect(paginate([], 4, 20).page).toBe(1);
  });

  it('clamps pages below 1, past the end, fractional or NaN', () => {
    const list = Array.from({ length: 45 }, (_, i) => i);
    expect(paginate(list, 0, 20).page).toBe(1);
    expect(paginate(list, -3, 20).page).toBe(1);
    expect(paginate(list, 9, 20).page).toBe(3);
    expect(paginate(list, Infinity, 20).page).toBe(3);
    expect(paginate(list, 2.9, 20).page).toBe(2);
    expect(paginate(list, Number.NaN, 20).page).toBe(1);
  });

  it('rejects a size that is not a positive integer with a RangeError', () => {
    for (const bad of [0, -20, 2.5, Number.NaN, Infinity]) {
      expect(() => paginate([1, 2, 3], 1, bad)).toThrow(RangeError);
    }
  });

  it('offers 20, 40, 60, 80 or 100 rows a page, 20 by default', () => {
    expect(ROWS_PER_PAGE).toEqual([20, 40, 60, 80, 100]);
    expect(DEFAULT_ROWS_PER_PAGE).toBe(20);
  });

  it('the pages concatenated give back the list', () => {
    fc.assert(
      fc.property(rows, size, (list, n) => {
        const { pageCount } = paginate(list, 1, n);
        const pages = Array.from({ length: pageCount }, (_, i) => paginate(list, i + 1, n).items);
        expect(pages.flat()).toEqual(list);
      }),
    );
  });

  it('has ceil(total / size) pages, at least one, every one but the last full', () => {
    fc.assert(
      fc.property(rows, size, (list, n) => {
        const { pageCount, total } = paginate(list, 1, n);
        expect(total).toBe(list.length);
        expect(pageCount).toBe(Math.max(1, Math.ceil(list.length / n)));
        for (let page = 1; page < pageCount; page++) {
          expect(paginate(list, page, n).items).toHaveLength(n);
        }
        const last = paginate(list, pageCount, n).items.length;
        expect(last).toBeLessThanOrEqual(n);
        expect(last > 0 || list.length === 0).toBe(true);
      }),
    );
  });

  it('shows a page out of range as the nearest page in range', () => {
    fc.assert(
      fc.property(rows, size, fc.integer({ min: -1000, max: 1000 }), (list, n, page) => {
        const result = paginate(list, page, n);
        const nearest = Math.min(Math.max(page, 1), result.pageCount);
        expect(result.page).toBe(nearest);
        expect(result.items).toEqual(paginate(list, nearest, n).items);
      }),
    );
  });
});
