// /register: name, phone, password (at least 8), its confirmation, the referral code (prefilled
// from an invitation link's ?ref=) and the terms; then the code.
import {
  AuthError,
  isReferralCode,
  MAX_NAME_LENGTH,
  type NameProblem,
  nameProblem,
  normalizePhone,
  normalizeReferralCode,
} from '@blockcatch/sdk';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { PublicFooter } from '../../components/PublicFooter.js';
import { Checkbox } from '../../components/ui/Checkbox.js';
import { Input, PhoneInput } from '../../components/ui/Input.js';
import { auth } from '../../sdk.js';
import { rememberPendingSignIn } from './pendingSignIn.js';
import { referralFromSearch } from './referral-link.js';

type Field = 'name' | 'phone' | 'password' | 'confirm' | 'referral' | 'terms';

/** The form's words for each reason the SDK's name rule gives (the gateway applies the same). */
const NAME_PROBLEM_KEYS: Record<Exclude<NameProblem, 'required'>, string> = {
  'too-long': 'auth.register.nameTooLong',
  'control-character': 'auth.register.nameControl',
  link: 'auth.register.nameLink',
};

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [form, setForm] = useState(() => ({
    name: '',
    phone: '',
    password: '',
    confirm: '',
    referral: referralFromSearch(search),
  }));
  const [terms, setTerms] = useState(false);
  // Asked apart from the terms and never needed: left empty, no marketing texts.
  const [marketing, setMarketing] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof form) => (value: string) =>
    setForm((f) => ({ ...f, [field]: value }));

  const validate = (): Partial<Record<Field, string>> => {
    const found: Partial<Record<Field, string>> = {};
    const required = t('common.required');
    const problem = nameProblem(form.name.trim());
    if (problem === 'required') found.name = required;
    else if (problem) found.name = t(NAME_PROBLEM_KEYS[problem], { max: MAX_NAME_LENGTH });
    if (!form.phone.trim()) found.phone = required;
    else if (!normalizePhone(form.phone)) found.phone = t('auth.invalidPhone');
    if (!form.password) found.password = required;
    else if (form.password.length < 8) found.password = t('auth.register.passwordMin');
    if (!form.confirm) found.confirm = required;
    else if (form.confirm !== form.password) found.confirm = t('auth.register.passwordsMustMatch');
    const referral = normalizeReferralCode(form.referral);
    if (referral && !isReferralCode(referral)) found.referral = t('auth.register.invalidReferral');
    if (!terms) found.terms = t('auth.register.mustAgreeTerms');
    return found;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    const missing = Object.values(found).includes(t('common.required'));
    setAlert(missing ? t('auth.register.requiredFields') : null);
    if (Object.keys(found).length > 0) return;
    const phone = normalizePhone(form.phone)!;
    setBusy(true);
    try {
      await auth.signUp(
        phone,
        form.password,
        form.name.trim(),
        form.referral,
        marketing ? { marketingConsent: i18n.language === 'es' ? 'es' : 'en' } : {},
      );
      rememberPendingSignIn(phone, form.password);
      navigate('/confirm-account', { state: { phoneNumber: phone, fromRegister: true } });
    } catch (error) {
      setAlert(
        error instanceof AuthError && error.identityCode === 'UsernameExistsException'
          ? t('errors.accountExists')
          : t('errors.couldNotCreateAccount'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <main className="page narrow">
        <h1>{t('auth.register.title')}</h1>
        <form className="card form" onSubmit={onSubmit} noValidate>
          <Input
            label={t('auth.register.name')}
            autoComplete="name"
            value={form.name}
            onChange={set('name')}
            error={errors.name}
          />
          <PhoneInput
            label={t('auth.phoneNumber')}
            value={form.phone}
            onChange={set('phone')}
            error={errors.phone}
          />
          <Input
            label={t('auth.password')}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
            error={errors.password}
          />
          <Input
            label={t('auth.register.confirmPassword')}
            type="password"
            autoComplete="new-password"
            value={form.confirm}
            onChange={set('confirm')}
            error={errors.confirm}
          />
          <Input
            label={t('auth.register.referralCode')}
            autoComplete="off"
            autoCapitalize="characters"
            value={form.referral}
            onChange={set('referral')}
            error={errors.referral}
          />
          <div className="checkbox-field">
            <Checkbox
              id="terms"
              checked={terms}
              onChange={setTerms}
              errorId={errors.terms ? 'terms-error' : undefined}
            />
            <label htmlFor="terms">
              {t('auth.register.agreeTerms')} (<Link to="/terms">{t('nav.terms')}</Link>)
            </label>
          </div>
          {errors.terms && (
            <p id="terms-error" className="field-error">
              {errors.terms}
            </p>
          )}
          <div className="checkbox-field">
            <Checkbox id="marketing-consent" checked={marketing} onChange={setMarketing} />
            <label htmlFor="marketing-consent">{t('auth.register.marketingConsent')}</label>
          </div>
          <FormAlert text={alert} />
          <button type="submit" className="primary" disabled={busy}>
            {t('auth.register.submit')}
          </button>
          <p className="form-links">
            {t('auth.register.haveAccount')} <Link to="/">{t('auth.register.signIn')}</Link>
          </p>
        </form>
      </main>
      <PublicFooter />
    </>
  );
}
