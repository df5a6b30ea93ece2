// i18next for the web app, with the catalogues the CLI shares. The language is a stored setting.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import es from '../../locales/es.json';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'language';

export function storedLanguage(): Language {
  const saved = window.localStorage.getItem(STORAGE_KEY);
  return saved === 'es' ? 'es' : 'en';
}

export function setLanguage(language: Language): void {
  window.localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  void i18next.changeLanguage(language);
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, es: { translation: es } },
  lng: storedLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
document.documentElement.lang = storedLanguage();

export default i18next;
