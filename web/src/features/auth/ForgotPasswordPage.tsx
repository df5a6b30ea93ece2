// /forgot-password: the phone number gets a code by SMS, then the code and a new password.
import { normalizePhone } from '@blockcatch/sdk';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { CodeInput, Input, PhoneInput } from '../../components/ui/Input.js';
import { auth } from '../../sdk.js';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [phone, setPhone] = useState('');
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await action();
    } catch {
      setAlert(failure);
    } finally {
      setBusy(false);
    }
  };

  const onSendCode = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const normalized = normalizePhone(phone);
    if (!phone.trim()) return setAlert(t('errors.requiredFields'));
    if (!normalized) return setAlert(t('auth.invalidPhone'));
    void run(async () => {
      await auth.forgotPassword(normalized);
      setCodeSentTo(normalized);
    }, t('errors.errorSendingCode'));
  };

  const onReset = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!code.trim() || !password) return setAlert(t('errors.requiredFields'));
    if (password.length < 8) return setAlert(t('auth.register.passwordMin'));
    void run(async () => {
      await auth.confirmForgotPassword(codeSentTo!, code.trim(), password);
      navigate('/login', { replace: true, state: { notice: 'passwordChanged' } });
    }, t('auth.forgotPassword.failed'));
  };

  return (
    <main className="page narrow">
      <h1>{t('auth.forgotPassword.title')}</h1>
      {codeSentTo ? (
        <form className="card form" onSubmit={onReset} noValidate>
          <CodeInput label={t('auth.forgotPassword.code')} value={code} onChange={setCode} />
          <Input
            label={t('auth.forgotPassword.newPassword')}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
          />
          <FormAlert text={alert} />
          <button type="submit" className="primary" disabled={busy}>
            {t('auth.forgotPassword.submit')}
          </button>
        </form>
      ) : (
        <form className="card form" onSubmit={onSendCode} noValidate>
          <p>{t('auth.forgotPassword.instructions')}</p>
          <PhoneInput label={t('auth.phoneNumber')} value={phone} onChange={setPhone} />
          <FormAlert text={alert} />
          <button type="submit" className="primary" disabled={busy}>
            {t('auth.forgotPassword.sendCode')}
          </button>
        </form>
      )}
      <p className="form-links">
        <Link to="/">{t('auth.register.signIn')}</Link>
      </p>
    </main>
  );
}
