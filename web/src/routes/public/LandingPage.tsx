// Landing and sign-in at /: what the service does, and the sign-in form.
import { useTranslation } from 'react-i18next';
import { PublicFooter } from '../../components/PublicFooter.js';
import { SignInForm } from '../../components/SignInForm.js';

export default function LandingPage() {
  const { t } = useTranslation();
  return (
    <>
      <main className="page landing">
        <section className="hero">
          <h1>{t('landing.title')}</h1>
          <p>{t('landing.subtitle')}</p>
        </section>
        <SignInForm />
      </main>
      <PublicFooter />
    </>
  );
}
