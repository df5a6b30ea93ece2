// /login: the same sign-in form as the landing page, on its own.
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PublicFooter } from '../../components/PublicFooter.js';
import { SignInForm } from '../../components/SignInForm.js';

export default function LoginPage() {
  const { t } = useTranslation();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  return (
    <>
      <main className="page narrow">
        <h1>{t('auth.login.title')}</h1>
        {notice === 'passwordChanged' && <p role="status">{t('auth.forgotPassword.success')}</p>}
        {notice === 'confirmed' && <p role="status">{t('auth.confirmAccount.confirmed')}</p>}
        <SignInForm />
      </main>
      <PublicFooter />
    </>
  );
}
