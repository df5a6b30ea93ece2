import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SearchableRow, searchRecipients } from './search.js';
import { createRecipientSearch } from './search-index.js';

// Mostly ASCII, which the index answers, with the letters that take the pattern path: accents,
// the Kelvin sign and long s (which fold onto ASCII k and s), dotted I, and the index's separator.
const letter = fc.constantFrom(
  ...'aAbBkKsSeEmM .-()+1570',
  'í',
  'Ñ',
  '\u212a',
  '\u017f',
  'İ',
  '\0',
);
const text = fc.string({ unit: letter, maxLength: 10 });
const phoneNumber = fc.oneof(
  fc.stringMatching(/^\+1[2-9]\d{9}$/),
  fc.stringMatching(/^\([2-9]\d{2}\) \d{3}-\d{4}$/),
  fc.stringMatching(/^[\d ]{0,8}$/),
  // Numbers as typed by hand: letters, an Arabic-Indic digit (not a digit to phone search), '+'.
  fc.string({ unit: fc.constantFrom(...'0123456789+-() xK', '\u0663'), maxLength: 16 }),
);
const flexRow = fc.record({
  name: text,
  phoneNumber,
  referral: fc.option(text),
  humanRegion: fc.option(text),
});
const sparkRow = fc.record({
  name: text,
  phoneNumber,
  referral: fc.option(text),
  driverOptions: fc.record({ deliveryArea: fc.option(text) }),
});
const rows = fc.array(fc.oneof(flexRow, sparkRow), { maxLength: 70 });
/** What an admin does in the box: types, erases, clears, pastes. */
const edit = fc.oneof(
  fc.record({ type: fc.constant('type' as const), text }),
  fc.record({ type: fc.constant('erase' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ type: fc.constant('paste' as const), text: fc.oneof(text, phoneNumber) }),
);

function applyEdit(query: string, e: EditStep): string {
  if (e.type === 'type') return query + e.text;
  if (e.type === 'erase') return query.slice(0, Math.max(0, query.length - e.count));
  return e.text;
}
type EditStep =
  | { type: 'type'; text: string }
  | { type: 'erase'; count: number }
  | { type: 'paste'; text: string };

describe('createRecipientSearch', () => {
  it('answers every query of a typing session exactly as searchRecipients does', () => {
    fc.assert(
      fc.property(rows, fc.array(edit, { maxLength: 12 }), (list, edits) => {
        const index = createRecipientSearch<SearchableRow>(list);
        let query = '';
        for (const e of edits) {
          query = applyEdit(query, e);
          expect(index.search(query)).toEqual(searchRecipients(list, query));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('answers a query typed one character at a time as searchRecipients does', () => {
    fc.assert(
      fc.property(rows, fc.oneof(text, phoneNumber), (list, typed) => {
        const index = createRecipientSearch<SearchableRow>(list);
        for (let end = 0; end <= typed.length; end++) {
          const query = typed.slice(0, end);
          expect(index.search(query)).toEqual(searchRecipients(list, query));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers the digits of a stored number, typed one at a time, as searchRecipients does', () => {
    fc.assert(
      fc.property(rows, fc.nat(), fc.nat(), (list, pick, cut) => {
        fc.pre(list.length > 0);
        const index = createRecipientSearch<SearchableRow>(list);
        const digits = list[pick % list.length]!.phoneNumber.replace(/\D+/g, '');
        const typed = digits.slice(cut % (digits.length + 1));
        for (let end = 1; end <= typed.length; end++) {
          const query = typed.slice(0, end);
          expect(index.search(query)).toEqual(searchRecipients(list, query));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('narrows while typing and widens again on backspace', () => {
    const table = [
      {
        name: 'María García',
        phoneNumber: '+15551234567',
        referral: 'MARIA10',
        humanRegion: 'Dallas',
      },
      { name: 'Mark Smith', phoneNumber: '(214) 555-0000', referral: null, humanRegion: 'Houston' },
      { name: 'Ana', phoneNumber: '+12145550001', driverOptions: { deliveryArea: 'Miami Beach' } },
    ];
    const index = createRecipientSearch<SearchableRow>(table);
    const names = (query: string) => index.search(query).map((r) => r.name);
    expect(names('m')).toEqual(['María García', 'Mark Smith', 'Ana']);
    expect(names('ma')).toEqual(['María García', 'Mark Smith']);
    expect(names('mar')).toEqual(['María García', 'Mark Smith']);
    expect(names('mark')).toEqual(['Mark Smith']);
    expect(names('mar')).toEqual(['María García', 'Mark Smith']);
    expect(names('(555) 123-4567')).toEqual(['María García']);
    expect(names('  ')).toEqual(['María García', 'Mark Smith', 'Ana']);
  });

  it('returns a new array for a blank query', () => {
    const list = [{ name: 'a', phoneNumber: '1' }];
    const result = createRecipientSearch(list).search(' ');
    expect(result).toEqual(list);
    expect(result).not.toBe(list);
  });
});
