// /flex/otp: the one-time code the delivery platform texted, which completes the connection.
import { formatPhone, HttpError } from '@blockcatch/sdk';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { CodeInput } from '../../components/ui/Input.js';
import { useAuth } from '../../hooks/useAuth.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';

export default function OtpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const challenge = useLocation().state as { challengeId?: string; sentTo?: string } | null;
  const [code, setCode] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Without a pending sign-in there is nothing to verify: start over.
  if (!challenge?.challengeId) return <Navigate to="/flex/login" replace />;
  const challengeId = challenge.challengeId;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!code.trim()) return setAlert(t('auth.confirmAccount.otpRequired'));
    setBusy(true);
    try {
      await gateway.platform.verify({ challengeId, code: code.trim() });
      await refresh();
      navigate('/flex/confirm', { replace: true });
    } catch (error) {
      const codeName = error instanceof HttpError ? error.serverCode : undefined;
      setAlert(
        codeName === 'invalid_code'
          ? t('flex.otp.invalid')
          : codeName === 'no_pending_sign_in'
            ? t('flex.otp.startOver')
            : errorMessage(t, error, t('errors.generic')),
      );
      setBusy(false);
    }
  };

  return (
    <main className="page narrow">
      <h1>{t('flex.otp.title')}</h1>
      <p>{t('flex.otp.description')}</p>
      {challenge.sentTo && (
        <p className="muted">
          {t('flex.otp.sentTo', { phoneNumber: formatPhone(challenge.sentTo) })}
        </p>
      )}
      <form className="card form" onSubmit={onSubmit} noValidate>
        <CodeInput label={t('flex.otp.code')} value={code} onChange={setCode} />
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.otp.submit')}
        </button>
      </form>
    </main>
  );
}
