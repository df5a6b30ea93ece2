// /faqs: support hours, the limited number of users, weekly service and the referral free week.
import { useTranslation } from 'react-i18next';
import { PublicFooter } from '../../components/PublicFooter.js';
import { FAQ_KEYS } from '../../lib/faqs.js';

export default function FaqsPage() {
  const { t } = useTranslation();
  return (
    <>
      <main className="page narrow">
        <h1>{t('faqs.title')}</h1>
        {FAQ_KEYS.map((key) => (
          <section key={key} id={key} className="faq">
            <h2>{t(`faqs.${key}.question`)}</h2>
            <p>{t(`faqs.${key}.answer`)}</p>
          </section>
        ))}
      </main>
      <PublicFooter />
    </>
  );
}
