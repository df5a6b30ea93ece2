// i18next for the web app, with the catalogues the CLI shares. The language is a stored setting.
// Only English is in the first load; Spanish is fetched when it is chosen or was stored.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'language';

export function storedLanguage(): Language {
  const saved = window.localStorage.getItem(STORAGE_KEY);
  return saved === 'es' ? 'es' : 'en';
}

async function ensureCatalogue(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  const catalogue = (await import('../../locales/es.json')).default;
  i18next.addResourceBundle(language, 'translation', catalogue);
}

export async function setLanguage(language: Language): Promise<void> {
  window.localStorage.setItem(STORAGE_KEY, language);
  await ensureCatalogue(language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

const initial = storedLanguage();
await i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  partialBundledLanguages: true,
  lng: 'en',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
// A stored Spanish is loaded before the first render, so the page never flashes in English.
if (initial !== 'en') await setLanguage(initial);
document.documentElement.lang = initial;

export default i18next;
