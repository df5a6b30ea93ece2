import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  KEYWORDS,
  type KeywordIntent,
  type KeywordLanguage,
  MAX_KEYWORD_REPLY_LENGTH,
  parseKeyword,
} from './keywords.js';

const ALL = (
  Object.entries(KEYWORDS) as [KeywordIntent, Record<KeywordLanguage, readonly string[]>][]
).flatMap(([intent, languages]) =>
  (Object.entries(languages) as [KeywordLanguage, readonly string[]][]).flatMap(
    ([language, words]) => words.map((word) => ({ intent, language, word })),
  ),
);

/** Accented forms a phone keyboard gives each vowel (and N). */
const ACCENTS: Record<string, string[]> = {
  A: ['A', 'Á', 'À', 'Â', 'Ä', 'a', 'á', 'à'],
  E: ['E', 'É', 'È', 'Ê', 'e', 'é'],
  I: ['I', 'Í', 'Ì', 'Ï', 'i', 'í'],
  O: ['O', 'Ó', 'Ò', 'Ö', 'o', 'ó'],
  U: ['U', 'Ú', 'Ü', 'u', 'ú', 'ü'],
  N: ['N', 'Ñ', 'n', 'ñ'],
};

/** The word written with any case and accents, in composed or decomposed Unicode. */
const variant = (word: string) =>
  fc
    .tuple(
      fc.tuple(...[...word].map((c) => fc.constantFrom(...(ACCENTS[c] ?? [c, c.toLowerCase()])))),
      fc.constantFrom('NFC', 'NFD'),
      fc.constantFrom('', ' ', '  ', '\n', '\t'),
      fc.constantFrom('', ' ', '\n'),
    )
    .map(
      ([letters, form, before, after]) => `${before}${letters.join('').normalize(form)}${after}`,
    );

describe('parseKeyword', () => {
  it('knows every listed keyword, in its language, whatever its case and accents', () => {
    for (const keyword of ALL) {
      fc.assert(
        fc.property(variant(keyword.word), (body) => {
          expect(parseKeyword(body)).toEqual(keyword);
        }),
        { numRuns: 50 },
      );
    }
  });

  it('reads SÍ as Spanish opt-in and BAJA, PARAR, FIN as Spanish opt-outs', () => {
    expect(parseKeyword('Sí')).toEqual({ intent: 'opt-in', language: 'es', word: 'SI' });
    expect(parseKeyword('sí')?.language).toBe('es');
    for (const word of ['baja', 'Parar', 'FIN', 'cancelar', 'Detener', 'alto']) {
      expect(parseKeyword(word)).toMatchObject({ intent: 'opt-out', language: 'es' });
    }
    expect(parseKeyword('ayuda')).toMatchObject({ intent: 'help', language: 'es' });
    expect(parseKeyword('STOP')).toMatchObject({ intent: 'opt-out', language: 'en' });
  });

  it('takes nothing else for a keyword: a sentence, a keyword inside one, or any other text', () => {
    const words = new Set(ALL.map((k) => k.word));
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (body) => {
        const plain = body.trim().normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
        const expected = body.length <= MAX_KEYWORD_REPLY_LENGTH && words.has(plain);
        expect(parseKeyword(body) !== null).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    for (const body of ['please stop', 'STOP IT', 'stop.', 'no', 'S I', `${' '.repeat(40)}STOP`]) {
      expect(parseKeyword(body)).toBeNull();
    }
  });
});
