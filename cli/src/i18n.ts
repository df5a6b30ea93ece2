// The CLI's texts, from the shared catalogues in locales/ (bundled into the build). The language is
// chosen once per run, before the command line is parsed, so help and commander's own messages
// speak it too; `t` then works from any module.
import i18next, { type TFunction } from 'i18next';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };

export type Translate = TFunction;
export type Language = 'en' | 'es';

function createTranslate(lang: Language): Translate {
  const instance = i18next.createInstance();
  // With inline resources and initAsync off, init finishes before it returns.
  void instance.init({
    lng: lang,
    fallbackLng: 'en',
    resources: { en: { translation: en }, es: { translation: es } },
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  } as Parameters<typeof instance.init>[0]);
  return instance.t;
}

let current: Translate = createTranslate('en');

/** Picks the language of this run. */
export function chooseLanguage(lang: Language): Translate {
  current = createTranslate(lang);
  return current;
}

/** Translates with the language of this run. */
export const t: Translate = ((...args: Parameters<Translate>) => current(...args)) as Translate;

export async function loadTranslations(lang: Language): Promise<Translate> {
  return createTranslate(lang);
}

/**
 * The language asked for on the command line (`--lang es`, `--lang=es`), in BLOCKCATCH_LANG or by
 * the system locale (`LANG=es_MX.UTF-8`), read
 * before commander parses, so its texts can be translated; an unknown value is reported later by
 * parseGlobalOptions and leaves English.
 */
export function languageOf(argv: readonly string[], env = process.env): Language {
  let asked: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '--lang') asked = argv[i + 1];
    else if (arg.startsWith('--lang=')) asked = arg.slice('--lang='.length);
  }
  const code = (asked ?? env.BLOCKCATCH_LANG ?? localeLanguage(env)).slice(0, 2).toLowerCase();
  return code === 'es' ? 'es' : 'en';
}

/**
 * The language of the system locale, as POSIX orders it (LC_ALL, then LC_MESSAGES, then LANG):
 * `es_MX.UTF-8` picks Spanish; anything else, English.
 */
export function localeLanguage(env: Record<string, string | undefined> = process.env): Language {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^es(?:[_.@-]|$)/i.test(locale.slice(0, 40)) ? 'es' : 'en';
}
