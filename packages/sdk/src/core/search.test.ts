import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone.js';
import { type SearchableRow, searchRecipients } from './search.js';

// Names and places as the tables hold them: Spanish and English, any case, a few symbols.
const letter = fc.constantFrom(...'aAbBcCeEgGíÍñÑóÓáÁüÜzZ .-()+1570');
const text = fc.string({ unit: letter, maxLength: 12 });
const phoneNumber = fc.oneof(
  fc.stringMatching(/^\+1[2-9]\d{9}$/),
  fc.stringMatching(/^\([2-9]\d{2}\) \d{3}-\d{4}$/),
  fc.stringMatching(/^[\d ]{0,8}$/),
);

const flexRow = fc.record({
  id: fc.nat(),
  name: text,
  phoneNumber,
  referral: fc.option(text),
  humanRegion: fc.option(text),
});
const sparkRow = fc.record({
  id: fc.nat(),
  name: text,
  phoneNumber,
  referral: fc.option(text),
  driverOptions: fc.record({ deliveryArea: fc.option(text) }),
});
const rows = fc.array(fc.oneof(flexRow, sparkRow), { maxLength: 40 });

/** Reference model: lower-case everything, then look for the query in each field. */
function matchesByModel(row: SearchableRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  const fields = [
    row.name,
    row.phoneNumber,
    row.humanRegion,
    row.driverOptions?.deliveryArea,
    row.referral,
  ];
  if (fields.some((field) => field?.toLowerCase().includes(q))) return true;
  const phone = normalizePhone(query.trim());
  return phone !== null && normalizePhone(row.phoneNumber) === phone;
}

/** A random mix of upper and lower case over `s`. */
const recased = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((upper) => [...s].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

describe('searchRecipients', () => {
  const table = [
    {
      name: 'María García',
      phoneNumber: '+15551234567',
      referral: 'MARIA10',
      humanRegion: 'Dallas',
    },
    { name: 'John Smith', phoneNumber: '(214) 555-0000', referral: null, humanRegion: 'Houston' },
    {
      name: 'Ana (Spark)',
      phoneNumber: '+12145550001',
      driverOptions: { deliveryArea: 'Miami Beach' },
    },
  ];

  it('matches name, phone, region, delivery area and referral, ignoring case', () => {
    expect(searchRecipients(table, 'GARCÍA').map((r) => r.name)).toEqual(['María García']);
    expect(searchRecipients(table, 'dallas').map((r) => r.name)).toEqual(['María García']);
    expect(searchRecipients(table, 'maria10').map((r) => r.name)).toEqual(['María García']);
    expect(searchRecipients(table, 'miami').map((r) => r.name)).toEqual(['Ana (Spark)']);
    expect(searchRecipients(table, '555').map((r) => r.name)).toEqual([
      'María García',
      'John Smith',
      'Ana (Spark)',
    ]);
  });

  it('finds a phone number written in another notation', () => {
    expect(searchRecipients(table, '(555) 123-4567').map((r) => r.name)).toEqual(['María García']);
    expect(searchRecipients(table, '1 214 555 0000').map((r) => r.name)).toEqual(['John Smith']);
    expect(searchRecipients(table, '+1 214 555 0001').map((r) => r.name)).toEqual(['Ana (Spark)']);
  });

  it('treats regular-expression characters in the query as text', () => {
    expect(searchRecipients(table, '(spark)').map((r) => r.name)).toEqual(['Ana (Spark)']);
    expect(searchRecipients(table, 'j.hn')).toEqual([]);
    expect(searchRecipients(table, '.*')).toEqual([]);
  });

  it('ignores whitespace around the query', () => {
    expect(searchRecipients(table, '  smith ').map((r) => r.name)).toEqual(['John Smith']);
  });

  it('a blank query returns every row, in order, as a new array', () => {
    fc.assert(
      fc.property(rows, fc.stringMatching(/^\s*$/), (list, blank) => {
        const result = searchRecipients(list, blank);
        expect(result).toEqual(list);
        expect(result).not.toBe(list);
      }),
    );
  });

  it('keeps order and returns a subset', () => {
    fc.assert(
      fc.property(rows, text, (list, query) => {
        const result = searchRecipients(list, query);
        let from = 0;
        for (const row of result) {
          const at = list.indexOf(row, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + 1;
        }
      }),
    );
  });

  it('keeps exactly the rows a lower-cased substring check keeps', () => {
    fc.assert(
      fc.property(rows, fc.oneof(text, phoneNumber), (list, query) => {
        const expected = list.filter((row) => matchesByModel(row, query));
        expect(searchRecipients(list, query)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('finds a row by any part of any of its fields, in any case', () => {
    const rowAndQuery = rows
      .filter((list) => list.length > 0)
      .chain((list) =>
        fc.tuple(fc.constant(list), fc.nat(list.length - 1)).chain(([l, index]) => {
          const row = l[index]!;
          const fields = [
            row.name,
            row.phoneNumber,
            row.referral,
            'humanRegion' in row ? row.humanRegion : row.driverOptions.deliveryArea,
          ].filter((f): f is string => f != null && f.trim() !== '');
          if (fields.length === 0) return fc.constant({ list: l, row, query: row.name });
          return fc
            .constantFrom(...fields)
            .chain((field) =>
              fc
                .tuple(fc.nat(field.length), fc.nat(field.length))
                .map(([a, b]) => field.slice(Math.min(a, b), Math.max(a, b) + 1)),
            )
            .chain(recased)
            .map((query) => ({ list: l, row, query }));
        }),
      );
    fc.assert(
      fc.property(rowAndQuery, ({ list, row, query }) => {
        expect(searchRecipients(list, query)).toContain(row);
      }),
    );
  });

  it('a phone query in any notation finds every row with that number', () => {
    const digits = fc.stringMatching(/^[2-9]\d{9}$/);
    fc.assert(
      fc.property(rows, digits, fc.constantFrom('', '1', '01'), (list, number, prefix) => {
        const stored = [
          ...list,
          { id: -1, name: 'x', phoneNumber: `+1${number}`, referral: null, humanRegion: null },
        ];
        const query = `${prefix} (${number.slice(0, 3)}) ${number.slice(3, 6)}-${number.slice(6)}`;
        expect(searchRecipients(stored, query)).toContain(stored.at(-1));
      }),
    );
  });
});

describe('searchRecipients by a phone as tables print it', () => {
  const rows: SearchableRow[] = [
    { name: 'Ana', phoneNumber: '+13055550105' },
    { name: 'Bea', phoneNumber: '+13055550106' },
  ];

  it('matches a part of a number written with dashes, parentheses or spaces', () => {
    for (const query of ['555-0105', '(305) 555-0105', '305 555 0105', '+1 (305) 555-0105']) {
      expect(searchRecipients(rows, query).map((r) => r.name)).toEqual(['Ana']);
    }
  });

  it('any printed piece of a row number of 4 digits or more finds that row', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 4, max: 10 }), (start, len) => {
        const digits = '3055550105'.slice(start, start + len);
        fc.pre(digits.length >= 4);
        const printed = digits.replace(/(\d{3})(?=\d)/, '$1-');
        expect(searchRecipients(rows, printed).map((r) => r.name)).toContain('Ana');
      }),
    );
  });
});
