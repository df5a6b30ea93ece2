import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPhone, hasNormalizedPhone, normalizePhone } from './phone.js';

const digit = fc.constantFrom(...'0123456789');
const digits = (length: number) => fc.string({ unit: digit, minLength: length, maxLength: length });
const separator = fc.constantFrom(' ', '-', '.', '(', ')', '+', '/', 'x', '\t');
const noise = fc.string({ unit: separator, maxLength: 3 });

/** Scatters separators between the characters of `text`, as people write numbers. */
const written = (text: string) =>
  fc
    .array(noise, { minLength: text.length + 1, maxLength: text.length + 1 })
    .map((gaps) => gaps.map((gap, i) => gap + (text[i] ?? '')).join(''));

/** Ten digits behind one of the accepted prefixes, written with any separators. */
const usNumber = fc
  .tuple(digits(10), fc.constantFrom('', '1', '01'))
  .chain(([number, prefix]) => written(prefix + number).map((raw) => ({ raw, number, prefix })));

describe('normalizePhone', () => {
  it('turns ten digits, or eleven starting with 1, into +1 and ten digits', () => {
    expect(normalizePhone('(555) 123-4567')).toBe('+15551234567');
    expect(normalizePhone('1-555-123-4567')).toBe('+15551234567');
    expect(normalizePhone('+1 555 123 4567')).toBe('+15551234567');
    expect(normalizePhone('015551234567')).toBe('+15551234567');
    expect(normalizePhone('+15551234567')).toBe('+15551234567');
  });

  it('refuses other digit counts and prefixes', () => {
    expect(normalizePhone('')).toBeNull();
    expect(normalizePhone('555-1234')).toBeNull();
    expect(normalizePhone('25551234567')).toBeNull();
    expect(normalizePhone('115551234567')).toBeNull();
    expect(normalizePhone('0015551234567')).toBeNull();
    expect(normalizePhone('+44 20 7946 0958')).toBeNull();
  });

  it('gives +1 and the ten digits for any accepted prefix, whatever separators surround them', () => {
    fc.assert(
      fc.property(usNumber, ({ raw, number }) => {
        expect(normalizePhone(raw)).toBe(`+1${number}`);
      }),
    );
  });

  it('gives null for a digit count other than 10, 11 and 12', () => {
    const count = fc.integer({ min: 0, max: 16 }).filter((n) => n < 10 || n > 12);
    fc.assert(
      fc.property(count.chain(digits).chain(written), (raw) => {
        expect(normalizePhone(raw)).toBeNull();
      }),
    );
  });

  it('gives null for 11 digits not starting with 1 and 12 not starting with 01', () => {
    const eleven = fc.tuple(fc.constantFrom(...'023456789'), digits(10)).map(([a, b]) => a + b);
    const twelve = fc
      .tuple(
        digits(2).filter((p) => p !== '01'),
        digits(10),
      )
      .map(([a, b]) => a + b);
    fc.assert(
      fc.property(fc.oneof(eleven, twelve).chain(written), (raw) => {
        expect(normalizePhone(raw)).toBeNull();
      }),
    );
  });

  it('normalizePhone is idempotent on its own output', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          usNumber.map((n) => n.raw),
          fc.string(),
        ),
        (raw) => {
          const once = normalizePhone(raw);
          if (once !== null) expect(normalizePhone(once)).toBe(once);
        },
      ),
    );
  });
});

describe('formatPhone', () => {
  it('shows ten digits, with or without a leading 1, as +1 (xxx) xxx-xxxx', () => {
    expect(formatPhone('5551234567')).toBe('+1 (555) 123-4567');
    expect(formatPhone('15551234567')).toBe('+1 (555) 123-4567');
    expect(formatPhone('+1 (555) 123-4567')).toBe('+1 (555) 123-4567');
  });

  it('gives an empty string for anything else, including the 01 prefix search accepts', () => {
    expect(formatPhone('015551234567')).toBe('');
    expect(formatPhone('25551234567')).toBe('');
    expect(formatPhone('555-1234')).toBe('');
    expect(formatPhone('')).toBe('');
    expect(formatPhone('phone')).toBe('');
  });

  it('formats exactly the numbers with no prefix or a 1, and they read back as the same number', () => {
    fc.assert(
      fc.property(usNumber, ({ raw, number, prefix }) => {
        const shown = formatPhone(raw);
        if (prefix === '01') {
          expect(shown).toBe('');
        } else {
          expect(shown).toMatch(/^\+1 \(\d{3}\) \d{3}-\d{4}$/);
          expect(normalizePhone(shown)).toBe(`+1${number}`);
        }
      }),
    );
  });

  it('formats nothing that normalizePhone refuses', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(digit, separator) }), (raw) => {
        if (normalizePhone(raw) === null) expect(formatPhone(raw)).toBe('');
      }),
    );
  });
});

describe('hasNormalizedPhone', () => {
  it('answers exactly normalizePhone(raw) === normalized', () => {
    // Near misses: the same ten digits behind another prefix, one digit changed, or a digit less.
    const raw = fc.oneof(
      usNumber.map((n) => n.raw),
      fc.tuple(digits(2), digits(10)).map(([p, n]) => p + n),
      fc.integer({ min: 7, max: 9 }).chain(digits).chain(written),
      fc.string({ unit: fc.oneof(digit, separator), maxLength: 16 }),
    );
    const candidate = (r: string) =>
      fc.oneof(
        fc.constant(normalizePhone(r) ?? '+10000000000'),
        digits(10).map((n) => `+1${n}`),
        fc.constant(`+1${r.replace(/\D/g, '').slice(-10)}`),
        fc.constant(`+1${r.replace(/\D/g, '').slice(-9)}`),
        digit.map((d) => `+1${d}${r.replace(/\D/g, '').slice(-9)}`),
        fc.string({ maxLength: 13 }),
      );
    fc.assert(
      fc.property(
        raw.chain((r) => candidate(r).map((n) => [r, n] as const)),
        ([r, n]) => {
          expect(hasNormalizedPhone(r, n)).toBe(normalizePhone(r) === n);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
