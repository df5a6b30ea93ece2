import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME, titleFor } from './DocumentTitle.js';

describe("the tab's title", () => {
  it('names the page by its heading, then the product', () => {
    expect(titleFor('/flex/settings', 'Filters')).toBe('Filters · BlockCatch');
    expect(titleFor('/admin/billing', '  Facturación\n ')).toBe('Facturación · BlockCatch');
  });

  it('is the product alone on the landing page and on a page without a heading', () => {
    expect(titleFor('/', 'Catch delivery blocks automatically')).toBe(PRODUCT_NAME);
    expect(titleFor('/flex/otp', undefined)).toBe(PRODUCT_NAME);
    expect(titleFor('/faqs', ' \n\t ')).toBe(PRODUCT_NAME);
    expect(titleFor('/faqs', PRODUCT_NAME)).toBe(PRODUCT_NAME);
  });

  it('keeps any heading on one line, its words in order, and ends with the product', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 12 }).filter((w) => !/\s/.test(w)),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.constantFrom(' ', '\n', '\t ', '  '),
        (words, gap) => {
          const title = titleFor('/flex/dashboard', `${gap}${words.join(gap)}${gap}`);
          const heading = words.join(' ');
          expect(title).toBe(
            heading === PRODUCT_NAME ? PRODUCT_NAME : `${heading} · ${PRODUCT_NAME}`,
          );
          expect(title).not.toMatch(/[\n\t]| {2}/);
        },
      ),
    );
  });
});
