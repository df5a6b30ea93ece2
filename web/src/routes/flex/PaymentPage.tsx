// /payment: buy weeks of service by card through the gateway's payment provider. The query string
// the driver arrived with is kept by the redirect; `?weeks=N` picks the number of weeks.
import { cardDigits, HttpError, MAX_WEEKS, MIN_WEEKS, passesLuhn } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { Input } from '../../components/ui/Input.js';
import { useToast } from '../../components/ui/Toast.js';
import { errorMessage } from '../../hooks/errorMessage.js';
import { driverQueries, paymentQueries } from '../../hooks/queries.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useFormat } from '../../hooks/useFormat.js';
import { gateway } from '../../sdk.js';

const EXPIRY = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/;

export default function PaymentPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const { show } = useToast();
  const [search] = useSearchParams();
  const price = useQuery(paymentQueries.price());
  const [weeks, setWeeks] = useState(search.get('weeks') ?? String(MIN_WEEKS));
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' });
  const [alert, setAlert] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const [busy, setBusy] = useState(false);
  // One idempotency key per card and weeks entered: a retried click is not a second charge.
  const attempt = useRef<{ key: string; fingerprint: string } | null>(null);

  const weeksNumber = Number(weeks);
  const weeksValid =
    Number.isInteger(weeksNumber) && weeksNumber >= MIN_WEEKS && weeksNumber <= MAX_WEEKS;
  const total =
    price.data && weeksValid ? fmt.money((price.data.weeklyPriceCents * weeksNumber) / 100) : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setProcessing(false);
    if (!card.number.trim() || !card.expiry.trim() || !card.cvc.trim() || !weeks.trim()) {
      return setAlert(t('errors.requiredFields'));
    }
    if (!weeksValid)
      return setAlert(t('flex.payment.weeksRange', { min: MIN_WEEKS, max: MAX_WEEKS }));
    const digits = cardDigits(card.number);
    if (!digits || !passesLuhn(digits)) return setAlert(t('flex.payment.invalidCard'));
    const expiry = EXPIRY.exec(card.expiry.trim());
    const expMonth = Number(expiry?.[1]);
    const expYear = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
    if (!expiry || expMonth < 1 || expMonth > 12) return setAlert(t('flex.payment.invalidExpiry'));
    if (!/^\d{3,4}$/.test(card.cvc.trim())) return setAlert(t('flex.payment.invalidCvc'));

    const fingerprint = `${digits}|${expMonth}|${expYear}|${weeksNumber}`;
    if (attempt.current?.fingerprint !== fingerprint) {
      attempt.current = { key: crypto.randomUUID(), fingerprint };
    }
    setBusy(true);
    try {
      const result = await gateway.payments.create(
        { weeks: weeksNumber, card: { number: digits, expMonth, expYear, cvc: card.cvc.trim() } },
        { idempotencyKey: attempt.current.key },
      );
      if (result.status === 'succeeded') {
        show('success', t('flex.payment.success'));
        await queryClient.invalidateQueries({ queryKey: driverQueries.all });
        await refresh();
        navigate('/flex/dashboard', { replace: true });
        return;
      }
      if (result.status === 'failed') setAlert(t('errors.paymentFailed'));
      else setProcessing(true);
    } catch (error) {
      attempt.current = null;
      setAlert(
        error instanceof HttpError && error.status === 402
          ? t('errors.paymentFailed')
          : errorMessage(t, error, t('errors.couldNotStartPayment')),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page narrow">
      <h1>{t('flex.payment.title')}</h1>
      <form className="card form" onSubmit={onSubmit} noValidate>
        <p>
          {t('flex.payment.oneWeekService')}
          {price.data && (
            <>
              {': '}
              {fmt.money(price.data.weeklyPriceCents / 100)}
            </>
          )}
        </p>
        <Input
          label={t('flex.payment.weeks')}
          type="number"
          min={MIN_WEEKS}
          max={MAX_WEEKS}
          inputMode="numeric"
          value={weeks}
          onChange={setWeeks}
        />
        {total && <p className="total">{t('flex.payment.total', { total })}</p>}
        <fieldset className="card-fields">
          <legend>{t('flex.payment.card')}</legend>
          <Input
            label={t('flex.payment.cardNumber')}
            inputMode="numeric"
            autoComplete="cc-number"
            value={card.number}
            onChange={(number) => setCard((c) => ({ ...c, number }))}
          />
          <div className="field-row">
            <Input
              label={t('flex.payment.expiry')}
              placeholder="MM/YY"
              autoComplete="cc-exp"
              value={card.expiry}
              onChange={(expiry) => setCard((c) => ({ ...c, expiry }))}
            />
            <Input
              label={t('flex.payment.cvc')}
              inputMode="numeric"
              autoComplete="cc-csc"
              value={card.cvc}
              onChange={(cvc) => setCard((c) => ({ ...c, cvc }))}
            />
          </div>
        </fieldset>
        <FormAlert text={alert} />
        {processing && (
          <p className="notice" role="status">
            {t('errors.paymentProcessing')}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.payment.payNow')}
        </button>
      </form>
    </main>
  );
}
