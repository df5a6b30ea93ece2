import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invitationFirstName, MAX_FIRST_NAME_LENGTH, nameProblem } from './person-name.js';
import { MAX_NAME_LENGTH } from './schemas/bounds.js';

const LINKS = [
  'Claim $500 http://evil.example/x',
  'Ana https://bit.ly/3xyz',
  'Ana www.evil',
  'Ana evil.example',
  'Ana bit.ly',
  'Ana ana@mail.example',
  'Ana@evil',
  'visit EVIL.COM now',
];

describe('nameProblem', () => {
  it.each(LINKS)('refuses %j as holding a link', (name) => {
    expect(nameProblem(name)).toBe('link');
  });

  it.each([
    'Ana\nClaim',
    'Ana\tB',
    'Ana\rB',
    'A\u0000',
    'A\u007F',
    'A\u0085',
    'evil\u202Eexe',
    'A\u2066B',
  ])('refuses %j for its control character', (name) => {
    expect(nameProblem(name)).toBe('control-character');
  });

  it.each(['Rosa Díaz', "O'Brien", 'Jean-Luc Picard', 'J.R. Smith', 'Zoë 😀', '李小龍'])(
    'keeps %j',
    (name) => {
      expect(nameProblem(name)).toBeNull();
    },
  );

  it('refuses empty and over-long names', () => {
    expect(nameProblem('  ')).toBe('required');
    expect(nameProblem('a'.repeat(MAX_NAME_LENGTH + 1))).toBe('too-long');
    expect(nameProblem('a'.repeat(MAX_NAME_LENGTH))).toBeNull();
  });

  it('refuses every name that holds a scheme, an @ or a control character, wherever it is', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'B', ' ', 'é', '-'), maxLength: 20 });
    const bad = fc.constantFrom('://', '@', '\n', '\u0000', '\u202E', 'www.', 'x.io');
    fc.assert(
      fc.property(word, bad, word, (before, b, after) => {
        expect(nameProblem(`a${before}${b}${after}`)).not.toBeNull();
      }),
    );
  });
});

describe('invitationFirstName', () => {
  it('keeps the first word of an ordinary name', () => {
    expect(invitationFirstName('Rosa Diaz')).toBe('Rosa');
    expect(invitationFirstName("  D'Angelo  Smith ")).toBe("D'Angelo");
    expect(invitationFirstName('Jean-Luc Picard')).toBe('Jean-Luc');
    expect(invitationFirstName('José')).toBe('José');
  });

  it.each([
    ...LINKS,
    'Call 202 555 0100',
    'Ana 2025550100',
    'Ana +1 (202) 555-0100',
    '$500 Claim',
    '=HYPERLINK("x")',
    '-',
    "'",
    '',
    'A'.repeat(MAX_FIRST_NAME_LENGTH + 1),
    'Ana\u202Eevil',
  ])('leaves %j out', (name) => {
    expect(invitationFirstName(name)).toBeNull();
  });

  it('gives only letters, apostrophes and hyphens, at most 30, from any name', () => {
    const unit = fc.constantFrom('a', 'Z', 'é', ' ', "'", '-', '.', '/', ':', '@', '1', '$', '\n');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (name) => {
        const first = invitationFirstName(name);
        if (first === null) return;
        expect(first).toMatch(/^[\p{L}\p{M}'’-]{1,30}$/u);
        expect(first).toMatch(/\p{L}/u);
        expect(name).not.toMatch(/:\/\/|@|\d{7}/);
      }),
    );
  });

  it('answers at once for a long hostile name: the bound is checked first', () => {
    expect(invitationFirstName(`${'a.'.repeat(500_000)}`)).toBeNull();
    expect(nameProblem(`${'a.'.repeat(500_000)}`)).toBe('too-long');
  });
});
