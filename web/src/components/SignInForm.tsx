// Phone and password sign-in, shared by the landing page and /login. A signed-in driver is then
// moved on by the page's SetupRedirect; an unconfirmed account goes to /confirm-account.
import { AuthError, normalizePhone, type SignInResult } from '@blockcatch/sdk';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../hooks/useAuth.js';
import { loadSdk } from '../lib/loadSdk.js';
import { FormAlert } from './FormAlert.js';
import { Button } from './ui/Button.js';
import { CodeInput, Input, PhoneInput } from './ui/Input.js';

const WRONG_CREDENTIALS = new Set(['NotAuthorizedException', 'UserNotFoundException']);

export function SignInForm() {
  const { t } = useTranslation();
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [challenge, setChallenge] = useState<Extract<SignInResult, { status: 'challenge' }>>();
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = async (result: SignInResult) => {
    if (result.status === 'signedIn') {
      await refresh();
      return;
    }
    setChallenge(result);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (challenge?.challenge === 'NEW_PASSWORD_REQUIRED') {
      if (!newPassword) return setAlert(t('errors.identity.newPasswordRequired'));
      if (newPassword.length < 8) return setAlert(t('auth.register.passwordMin'));
    } else if (challenge) {
      if (!newPassword.trim()) return setAlert(t('auth.confirmAccount.otpRequired'));
    } else if (!phone.trim() || !password) {
      return setAlert(t('errors.requiredFields'));
    }
    const normalized = normalizePhone(phone);
    if (!normalized && !challenge) return setAlert(t('auth.invalidPhone'));
    setBusy(true);
    try {
      const { auth } = await loadSdk();
      await finish(
        challenge
          ? await challenge.answer(newPassword.trim())
          : await auth.signIn(normalized!, password),
      );
    } catch (error) {
      if (error instanceof AuthError && error.identityCode === 'UserNotConfirmedException') {
        // A new code goes out first; if it cannot, the confirm screen still lets them ask again.
        const { auth } = await loadSdk();
        await auth.resendCode(normalized!).catch(() => {});
        navigate('/confirm-account', { state: { phoneNumber: normalized } });
        return;
      }
      setAlert(
        error instanceof AuthError && WRONG_CREDENTIALS.has(error.identityCode)
          ? t('errors.wrongCredentials')
          : t('errors.couldNotSignIn'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    // Fetching the SDK as soon as the visitor starts typing hides its load behind their typing.
    <form
      className="card form"
      onSubmit={onSubmit}
      onFocus={() => void loadSdk()}
      noValidate
      aria-labelledby="sign-in-title"
    >
      <h2 id="sign-in-title">{t('auth.login.title')}</h2>
      {challenge?.challenge === 'NEW_PASSWORD_REQUIRED' ? (
        <>
          <p>{t('auth.newPassword.title')}</p>
          <Input
            label={t('auth.newPassword.newPassword')}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={setNewPassword}
          />
        </>
      ) : challenge ? (
        <CodeInput
          label={t('auth.confirmAccount.code')}
          value={newPassword}
          onChange={setNewPassword}
        />
      ) : (
        <>
          <PhoneInput
            label={t('auth.phoneNumber')}
            value={phone}
            onChange={setPhone}
            name="phone"
          />
          <Input
            label={t('auth.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            name="password"
          />
        </>
      )}
      <FormAlert text={alert} />
      <Button type="submit" variant="primary" busy={busy}>
        {challenge ? t('auth.newPassword.submit') : t('auth.login.submit')}
      </Button>
      <p className="form-links">
        <Link to="/forgot-password">{t('auth.login.forgotPassword')}</Link>
      </p>
      <p className="form-links">
        {t('auth.login.noAccount')} <Link to="/register">{t('auth.login.createAccount')}</Link>
      </p>
    </form>
  );
}
