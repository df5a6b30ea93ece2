// The CLI's texts, from the shared catalogues in locales/ (bundled into the build).
import i18next, { type TFunction } from 'i18next';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };

export type Translate = TFunction;

export async function loadTranslations(lang: 'en' | 'es'): Promise<Translate> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    fallbackLng: 'en',
    resources: { en: { translation: en }, es: { translation: es } },
    interpolation: { escapeValue: false },
    initAsync: false,
    showSupportNotice: false,
  } as Parameters<typeof instance.init>[0]);
  return instance.t;
}
