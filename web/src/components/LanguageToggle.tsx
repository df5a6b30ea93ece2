// The language toggle: English or Spanish, stored; English by default.
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, setLanguage } from '../i18n.js';

export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-toggle">
      <span className="visually-hidden">{t('nav.language')}</span>
      <select
        value={i18n.language}
        onChange={(e) => void setLanguage(e.target.value as Language)}
        data-testid="language-toggle"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {language === 'en' ? t('common.english') : t('common.spanish')}
          </option>
        ))}
      </select>
    </label>
  );
}
