// /terms: the terms a driver agrees to when creating an account.
import { useTranslation } from 'react-i18next';
import { PublicFooter } from '../../components/PublicFooter.js';

const SECTIONS = ['service', 'payment', 'referrals', 'account'] as const;

export default function TermsPage() {
  const { t } = useTranslation();
  return (
    <>
      <main className="page narrow">
        <h1>{t('terms.title')}</h1>
        {SECTIONS.map((key) => (
          <section key={key}>
            <h2>{t(`terms.${key}.title`)}</h2>
            <p>{t(`terms.${key}.body`)}</p>
          </section>
        ))}
      </main>
      <PublicFooter />
    </>
  );
}
