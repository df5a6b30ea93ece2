// /payment: what the driver buys (weekly renewal or a number of weeks), its price, the new end
// date and who processes the card, then on to the processor's hosted checkout: this page never
// shows a card field. Back from the checkout (`?checkout=…`), it waits for the processor's word.
// The query string the driver arrived with is kept by the redirect; `?weeks=N` picks the weeks.
import { extendExpiration, MAX_WEEKS, MIN_WEEKS } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { Input } from '../../components/ui/Input.js';
import { useToast } from '../../components/ui/Toast.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useFormat } from '../../hooks/useFormat.js';
import { declineText } from '../../lib/declineText.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { billingQueries, driverQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { paymentQueries } from './queries.js';

type Plan = 'subscription' | 'payment';

export default function PaymentPage() {
  const [search] = useSearchParams();
  const returned = search.get('checkout');
  if (returned) return <CheckoutReturn id={returned} canceled={search.has('canceled')} />;
  // Keyed by the weeks asked for: a link or a step back in history to another `?weeks=` starts
  // the order afresh from it, as a reload would, instead of keeping the choice made here.
  return <Order key={search.get('weeks') ?? ''} />;
}

function Order() {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const [search] = useSearchParams();
  const price = useQuery(paymentQueries.price());
  const billing = useQuery(billingQueries.summary());
  const subscribed =
    billing.data?.subscription != null &&
    ['active', 'past_due'].includes(billing.data.subscription.status);
  const [plan, setPlan] = useState<Plan>(search.get('weeks') ? 'payment' : 'subscription');
  const [weeks, setWeeks] = useState(search.get('weeks') ?? String(MIN_WEEKS));
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One idempotency key per order: a double click opens one checkout.
  const attempt = useRef<{ key: string; order: string } | null>(null);
  const chosen: Plan = subscribed ? 'payment' : plan;

  const weeksNumber = chosen === 'subscription' ? 1 : Number(weeks);
  const weeksValid =
    Number.isInteger(weeksNumber) && weeksNumber >= MIN_WEEKS && weeksNumber <= MAX_WEEKS;
  const weekly = price.data ? fmt.money(price.data.weeklyPriceCents / 100) : null;
  const total =
    price.data && weeksValid ? fmt.money((price.data.weeklyPriceCents * weeksNumber) / 100) : null;
  const newEnd =
    billing.data && weeksValid
      ? extendExpiration(billing.data.expirationDateTimestamp, Date.now(), weeksNumber)
      : null;
  const processor = price.data ? t(`flex.payment.processor.${price.data.provider}`) : '';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!weeksValid) {
      return setAlert(t('flex.payment.weeksRange', { min: MIN_WEEKS, max: MAX_WEEKS }));
    }
    const order = `${chosen}|${weeksNumber}`;
    if (attempt.current?.order !== order) attempt.current = { key: crypto.randomUUID(), order };
    setBusy(true);
    try {
      const checkout = await gateway.payments.checkout(
        { mode: chosen, weeks: weeksNumber, locale: i18n.language.startsWith('es') ? 'es' : 'en' },
        { idempotencyKey: attempt.current.key },
      );
      window.location.assign(checkout.url);
    } catch (error) {
      attempt.current = null;
      setAlert(errorMessage(t, error, t('errors.couldNotStartPayment')));
      setBusy(false);
    }
  };

  return (
    <main className="page narrow">
      <h1>{t('flex.payment.title')}</h1>
      <form className="card form checkout-order" onSubmit={onSubmit} noValidate>
        <fieldset className="plan-choice">
          <legend>{t('flex.payment.planLabel')}</legend>
          {subscribed ? (
            <p className="notice">
              {t('flex.payment.alreadySubscribed')}{' '}
              <Link to="/flex/billing">{t('flex.payment.goToBilling')}</Link>
            </p>
          ) : (
            <label className="radio-option">
              <input
                type="radio"
                name="plan"
                value="subscription"
                checked={chosen === 'subscription'}
                onChange={() => setPlan('subscription')}
              />
              <span>
                <strong>{t('flex.payment.subscription')}</strong>
                <br />
                <small>{t('flex.payment.subscriptionHint', { price: weekly ?? '' })}</small>
              </span>
            </label>
          )}
          <label className="radio-option">
            <input
              type="radio"
              name="plan"
              value="payment"
              checked={chosen === 'payment'}
              onChange={() => setPlan('payment')}
            />
            <span>
              <strong>{t('flex.payment.weeksPlan')}</strong>
              <br />
              <small>{t('flex.payment.weeksHint')}</small>
            </span>
          </label>
          {chosen === 'payment' && (
            <Input
              label={t('flex.payment.weeks')}
              type="number"
              min={MIN_WEEKS}
              max={MAX_WEEKS}
              inputMode="numeric"
              value={weeks}
              onChange={setWeeks}
            />
          )}
        </fieldset>

        <section className="order-summary" aria-labelledby="order-summary">
          <h2 id="order-summary">{t('flex.payment.summary')}</h2>
          <dl className="summary-list">
            <div className="summary-line">
              <dt>{t('flex.payment.whatYouBuy')}</dt>
              <dd>
                {chosen === 'subscription'
                  ? t('flex.payment.whatSubscription')
                  : t('flex.payment.whatWeeks', { count: weeksValid ? weeksNumber : 0 })}
              </dd>
            </div>
            <div className="summary-line">
              <dt>{t('flex.payment.price')}</dt>
              <dd>{weekly ? t('flex.payment.pricePerWeek', { price: weekly }) : '…'}</dd>
            </div>
            <div className="summary-line">
              <dt>{t('flex.payment.totalToday')}</dt>
              <dd data-testid="order-total">{total ?? '—'}</dd>
            </div>
            <div className="summary-line">
              <dt>{t('flex.payment.newEndDate')}</dt>
              <dd data-testid="order-end">{newEnd ? fmt.dateTime(newEnd) : '—'}</dd>
            </div>
            <div className="summary-line">
              <dt>{t('flex.payment.processedBy')}</dt>
              <dd>{processor}</dd>
            </div>
          </dl>
          <p className="secure-note">
            <span aria-hidden="true">🔒 </span>
            {t('flex.payment.secure', { processor })}
          </p>
        </section>
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy || !price.data}>
          <span aria-hidden="true">🔒 </span>
          {t('flex.payment.continue')}
        </button>
      </form>
    </main>
  );
}

/** How often the page asks whether the processor's events have arrived. */
const POLL_MS = 1000;

function CheckoutReturn({ id, canceled }: { id: string; canceled: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { refresh } = useAuth();
  const { show } = useToast();
  const checkout = useQuery({
    queryKey: ['payments', 'checkout', id],
    queryFn: () => gateway.payments.getCheckout(id),
    // Until the processor's event says it is paid; a decline or a cancel is final for this visit.
    refetchInterval: (query) =>
      query.state.data?.status === 'open' && !canceled && !query.state.data.failureCode
        ? POLL_MS
        : false,
  });
  const done = checkout.data?.status === 'complete';

  useEffect(() => {
    if (!done) return;
    (async () => {
      show('success', t('flex.payment.success'));
      await queryClient.invalidateQueries({ queryKey: driverQueries.all });
      await queryClient.invalidateQueries({ queryKey: ['billing'] });
      await refresh();
      navigate('/flex/dashboard', { replace: true });
    })();
  }, [done, navigate, queryClient, refresh, show, t]);

  const data = checkout.data;
  return (
    <main className="page narrow">
      <h1>{t('flex.payment.title')}</h1>
      <section className="card form">
        {checkout.error != null && (
          <FormAlert text={errorMessage(t, checkout.error, t('errors.couldNotStartPayment'))} />
        )}
        {data?.failureCode ? (
          <div className="form-alert" role="alert">
            <strong>{t('errors.paymentFailed')}</strong>
            <p>{declineText(t, data.failureCode)}</p>
          </div>
        ) : canceled && data?.status !== 'complete' ? (
          <p role="status">{t('flex.payment.returnedCanceled')}</p>
        ) : (
          <p className="notice" role="status">
            {t('errors.paymentProcessing')}
          </p>
        )}
        {(data?.failureCode || canceled) && data?.status === 'open' && (
          <a className="button primary" href={data.url}>
            {t('flex.payment.tryAgain')}
          </a>
        )}
        <Link to="/payment">{t('flex.payment.title')}</Link>
      </section>
    </main>
  );
}
