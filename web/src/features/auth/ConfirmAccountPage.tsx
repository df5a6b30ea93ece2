// /confirm-account: the SMS code that confirms a new account. The phone number arrives as
// navigation state (from sign-up, sign-in or the setup redirect); a code was just sent, so a new
// one may be asked for after RESEND_WAIT_SECONDS.
import { AuthError, formatPhone, normalizePhone } from '@blockcatch/sdk';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { CodeInput, PhoneInput } from '../../components/ui/Input.js';
import { useToast } from '../../components/ui/Toast.js';
import { useAuth } from '../../hooks/useAuth.js';
import { auth } from '../../sdk.js';
import { takePendingSignIn } from './pendingSignIn.js';
import { useCountdown } from './useCountdown.js';

/** Long enough for an SMS to arrive before the driver asks again. */
const RESEND_WAIT_SECONDS = 60;

export default function ConfirmAccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { state, refresh } = useAuth();
  const { show } = useToast();
  const arrived = (useLocation().state ?? {}) as { phoneNumber?: string; fromRegister?: boolean };
  const knownPhone =
    arrived.phoneNumber ?? (state.status === 'signed-in' ? state.session.phoneNumber : undefined);
  const [phoneInput, setPhoneInput] = useState('');
  const [code, setCode] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const countdown = useCountdown(knownPhone ? RESEND_WAIT_SECONDS : 0);
  const phone = knownPhone ?? normalizePhone(phoneInput);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!phone) return setAlert(t('auth.invalidPhone'));
    if (!code.trim()) return setAlert(t('auth.confirmAccount.otpRequired'));
    setBusy(true);
    try {
      await auth.confirmSignUp(code.trim(), phone);
    } catch (error) {
      setBusy(false);
      // A wrong or expired code is the driver's to fix: say so, and how.
      const badCode =
        error instanceof AuthError &&
        (error.identityCode === 'CodeMismatchException' ||
          error.identityCode === 'ExpiredCodeException');
      return setAlert(
        badCode
          ? `${t('errors.couldNotConfirmAccount')}: ${t('auth.confirmAccount.wrongCode')}`
          : t('errors.couldNotConfirmAccount'),
      );
    }
    const credentials = takePendingSignIn(phone);
    try {
      if (credentials) await auth.signIn(credentials.phone, credentials.password);
      await refresh();
      // The landing page sends a signed-in driver on to the next setup step.
      navigate(credentials || state.status === 'signed-in' ? '/' : '/login', {
        replace: true,
        state: { notice: 'confirmed' },
      });
    } catch {
      navigate('/login', { replace: true, state: { notice: 'confirmed' } });
    }
  };

  const onResend = async () => {
    if (!phone) return setAlert(t('auth.invalidPhone'));
    try {
      await auth.resendCode(phone);
      show('info', t('auth.confirmAccount.codeSent'));
      countdown.restart();
    } catch {
      setAlert(t('errors.errorSendingCode'));
    }
  };

  return (
    <main className="page narrow">
      <h1>{t('auth.confirmAccount.title')}</h1>
      {!arrived.fromRegister && <p className="notice">{t('errors.mustConfirmAccount')}</p>}
      <form className="card form" onSubmit={onSubmit} noValidate>
        {knownPhone ? (
          <p>{t('auth.confirmAccount.instructions', { phoneNumber: formatKnown(knownPhone) })}</p>
        ) : (
          <PhoneInput label={t('auth.phoneNumber')} value={phoneInput} onChange={setPhoneInput} />
        )}
        <CodeInput
          label={t('auth.confirmAccount.code')}
          value={code}
          onChange={setCode}
          name="code"
        />
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('auth.confirmAccount.submit')}
        </button>
        <button type="button" onClick={onResend} disabled={countdown.left > 0}>
          {t('auth.confirmAccount.resend')}
        </button>
        {countdown.left > 0 && (
          <p className="muted">{t('auth.confirmAccount.resendIn', { seconds: countdown.left })}</p>
        )}
      </form>
    </main>
  );
}

function formatKnown(phone: string): string {
  return formatPhone(phone) || phone;
}
