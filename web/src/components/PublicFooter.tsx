// Links every visitor can follow, signed in or not.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <footer className="public-footer">
      <nav aria-label={t('nav.footer')}>
        <Link to="/faqs">{t('nav.faqs')}</Link>
        <Link to="/terms">{t('nav.terms')}</Link>
        <Link to="/contact">{t('nav.contact')}</Link>
      </nav>
    </footer>
  );
}
