// i18next for the web app, with the catalogues the CLI shares. The language is a stored setting.
// The first load carries only English's first-load part (the landing page, the shell, the public
// pages); the driver and admin screens' part arrives with the first such screen (loadPageCatalogue),
// and Spanish is fetched when it is chosen or was stored. web/build/catalogue-parts.ts splits them.

import enFirstLoad from 'virtual:catalogue/en/first-load';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The localStorage key of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'language';

type Part = 'first-load' | 'pages';
type Catalogue = { default: Record<string, unknown> };
const PARTS: Record<Language, Record<Part, () => Promise<Catalogue>>> = {
  en: {
    'first-load': async () => ({ default: enFirstLoad }),
    pages: () => import('virtual:catalogue/en/pages'),
  },
  es: {
    'first-load': () => import('virtual:catalogue/es/first-load'),
    pages: () => import('virtual:catalogue/es/pages'),
  },
};
const loaded = new Map<string, Promise<void>>();
/** Set once a driver or admin screen has asked for its part: every later language needs it too. */
let pagesWanted = false;

export function storedLanguage(): Language {
  // Outside a browser (the landing page rendered at build time) the language is English.
  if (typeof window === 'undefined') return 'en';
  const saved = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  return saved === 'es' ? 'es' : 'en';
}

function ensurePart(language: Language, part: Part): Promise<void> {
  const key = `${language}/${part}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = PARTS[language][part]().then(({ default: catalogue }) => {
      // Deep: the parts are disjoint sections of one translation namespace.
      i18next.addResourceBundle(language, 'translation', catalogue, true, false);
    });
    // A failed fetch (a lost connection) may be retried by the next caller.
    loading.catch(() => loaded.delete(key));
    loaded.set(key, loading);
  }
  return loading;
}

function ensureCatalogue(language: Language): Promise<unknown> {
  return Promise.all([
    ensurePart(language, 'first-load'),
    pagesWanted ? ensurePart(language, 'pages') : null,
  ]);
}

/** The driver and admin screens' texts in the current language; a lazy screen awaits it. */
export function loadPageCatalogue(): Promise<void> {
  pagesWanted = true;
  return ensurePart(i18next.language === 'es' ? 'es' : 'en', 'pages');
}

export async function setLanguage(language: Language): Promise<void> {
  window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  await ensureCatalogue(language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

const initial = storedLanguage();
loaded.set('en/first-load', Promise.resolve());
await i18next.use(initReactI18next).init({
  resources: { en: { translation: enFirstLoad } },
  partialBundledLanguages: true,
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
// A stored Spanish is loaded before the first render, so the page never flashes in English.
if (initial !== 'en') await setLanguage(initial);
if (typeof document !== 'undefined') document.documentElement.lang = initial;
