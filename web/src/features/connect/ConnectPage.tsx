// /flex/login: the driver's delivery-platform email and password; the platform then texts a code.
import { HttpError, isEmail } from '@blockcatch/sdk';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { Input } from '../../components/ui/Input.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';

export default function ConnectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!email.trim() || !password) return setAlert(t('errors.requiredFields'));
    if (!isEmail(email.trim())) return setAlert(t('flex.login.invalidEmail'));
    setBusy(true);
    try {
      const challenge = await gateway.platform.signIn({ email: email.trim(), password });
      navigate('/flex/otp', { state: challenge });
    } catch (error) {
      setAlert(
        error instanceof HttpError && error.serverCode === 'platform_sign_in_failed'
          ? t('flex.login.failed')
          : errorMessage(t, error, t('errors.generic')),
      );
      setBusy(false);
    }
  };

  return (
    <main className="page narrow">
      <h1>{t('flex.login.title')}</h1>
      <p>{t('flex.login.description')}</p>
      <form className="card form" onSubmit={onSubmit} noValidate>
        <Input
          label={t('flex.login.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <Input
          label={t('auth.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.login.submit')}
        </button>
      </form>
    </main>
  );
}
