import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from './urls.js';

describe('withoutTrailingSlashes', () => {
  it('drops every trailing slash and nothing else', () => {
    expect(withoutTrailingSlashes('http://127.0.0.1:8787///')).toBe('http://127.0.0.1:8787');
    expect(withoutTrailingSlashes('/admin/')).toBe('/admin');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('a/b')).toBe('a/b');
  });

  it('answers as the plain pattern /\\/+$/ does, for any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('/', 'a', ':', '.'), { maxLength: 20 }).map((c) => c.join('')),
        (s) => {
          expect(withoutTrailingSlashes(s)).toBe(s.replace(/\/+$/, ''));
        },
      ),
    );
  });
});
