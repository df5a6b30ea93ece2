// The carriers' SMS keywords in English and Spanish: a reply that is only a keyword opts out, opts
// back in or asks for help, whatever its case and accents ("sí", "Baja", "stop "). The language is
// the keyword's, so the answer can be given in it.

export type KeywordIntent = 'opt-out' | 'opt-in' | 'help';
export type KeywordLanguage = 'en' | 'es';

export interface Keyword {
  intent: KeywordIntent;
  language: KeywordLanguage;
  /** The keyword as listed: upper case, without accents (SÍ is SI). */
  word: string;
}

/** Every keyword by intent and language, upper case and without accents. */
export const KEYWORDS: Readonly<
  Record<KeywordIntent, Readonly<Record<KeywordLanguage, readonly string[]>>>
> = {
  'opt-out': {
    en: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'],
    es: ['PARAR', 'ALTO', 'DETENER', 'CANCELAR', 'BAJA', 'FIN'],
  },
  'opt-in': { en: ['START', 'YES', 'UNSTOP'], es: ['COMENZAR', 'INICIAR', 'ALTA', 'SI'] },
  help: { en: ['HELP', 'INFO'], es: ['AYUDA'] },
};

/** A longer reply is a sentence, not a keyword; nothing past this is read. */
export const MAX_KEYWORD_REPLY_LENGTH = 40;

const BY_WORD = new Map<string, Keyword>(
  (
    Object.entries(KEYWORDS) as [KeywordIntent, Record<KeywordLanguage, readonly string[]>][]
  ).flatMap(([intent, languages]) =>
    (Object.entries(languages) as [KeywordLanguage, readonly string[]][]).flatMap(
      ([language, words]) => words.map((word) => [word, { intent, language, word }] as const),
    ),
  ),
);

const COMBINING_MARKS = /\p{M}/gu;

/** The keyword a reply is, or null: the whole reply, trimmed, case and accents ignored. */
export function parseKeyword(body: string): Keyword | null {
  if (body.length > MAX_KEYWORD_REPLY_LENGTH) return null;
  const word = body.trim().normalize('NFD').replace(COMBINING_MARKS, '').toUpperCase();
  return BY_WORD.get(word) ?? null;
}
