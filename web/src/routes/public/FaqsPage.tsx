// /faqs: support hours, the limited number of users, weekly service and the referral free week.
import { useTranslation } from 'react-i18next';
import { PublicFooter } from '../../components/PublicFooter.js';

const QUESTIONS = ['supportHours', 'limitedUsers', 'weeklyService', 'freeWeek'] as const;

export default function FaqsPage() {
  const { t } = useTranslation();
  return (
    <>
      <main className="page narrow">
        <h1>{t('faqs.title')}</h1>
        {QUESTIONS.map((key) => (
          <section key={key} className="faq">
            <h2>{t(`faqs.${key}.question`)}</h2>
            <p>{t(`faqs.${key}.answer`)}</p>
          </section>
        ))}
      </main>
      <PublicFooter />
    </>
  );
}
