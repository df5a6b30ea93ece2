// /flex/billing: the driver's own billing. Paid-up date, the weekly subscription (renews on, ends
// on, failing and being retried), cancel at the end of the week or resume, the processor's portal
// to update the card, referral credit waiting for the next renewal, the weeks credited for lost
// hours (docs/product.md) and invoices with receipts.
import type { BillingSummary, LostHoursCredit } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { Table } from '../../components/ui/Table.js';
import { useFormat } from '../../hooks/useFormat.js';
import { declineText } from '../../lib/declineText.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { billingQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';

export default function BillingPage() {
  const { t } = useTranslation();
  const billing = useQuery(billingQueries.summary());
  return (
    <main className="page narrow">
      <h1>{t('flex.billing.title')}</h1>
      {billing.error != null && (
        <FormAlert text={errorMessage(t, billing.error, t('flex.billing.loadFailed'))} />
      )}
      {billing.data && <Billing data={billing.data} />}
    </main>
  );
}

function Billing({ data }: { data: BillingSummary }) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const sub = data.subscription;
  const live = sub != null && sub.status !== 'canceled';
  const end = data.expirationDateTimestamp;

  const openPortal = async () => {
    setAlert(null);
    setBusy(true);
    try {
      const locale = i18n.language.startsWith('es') ? 'es' : 'en';
      window.location.assign(await gateway.payments.portal(locale));
    } catch (error) {
      setAlert(errorMessage(t, error, t('errors.couldNotStartPayment')));
      setBusy(false);
    }
  };

  const setCancel = async (cancel: boolean) => {
    setAlert(null);
    setDone(null);
    setBusy(true);
    try {
      const next = await gateway.payments.setCancelAtPeriodEnd(cancel);
      queryClient.setQueryData(billingQueries.summary().queryKey, next);
      const date = next.subscription?.currentPeriodEndTimestamp ?? next.expirationDateTimestamp;
      setDone(
        cancel
          ? t('flex.billing.cancelDone', { date: date ? fmt.date(date) : '' })
          : t('flex.billing.resumeDone'),
      );
    } catch (error) {
      setAlert(errorMessage(t, error, t('flex.billing.actionFailed')));
    } finally {
      setBusy(false);
    }
  };

  let status: string | null = null;
  if (sub) {
    const date = sub.currentPeriodEndTimestamp ? fmt.date(sub.currentPeriodEndTimestamp) : '';
    status =
      sub.status === 'active'
        ? sub.cancelAtPeriodEnd
          ? t('flex.billing.status.canceling', { date })
          : t('flex.billing.status.active', { date })
        : t(`flex.billing.status.${sub.status}`);
  }

  return (
    <>
      <section className="card" aria-labelledby="billing-subscription">
        <h2 id="billing-subscription">{t('flex.billing.subscription')}</h2>
        <p data-testid="paid-until">
          {end
            ? t('flex.billing.paidUntil', { date: fmt.dateTime(end) })
            : t('flex.billing.notPaid')}
        </p>
        {status ? (
          <p data-testid="subscription-status">
            <strong>{status}</strong>
          </p>
        ) : (
          <p>{t('flex.billing.noSubscription')}</p>
        )}
        {sub?.status === 'past_due' && (
          <p className="banner banner-danger" role="alert">
            {sub.nextRetryTimestamp
              ? t('flex.billing.dunning', {
                  reason: declineText(t, sub.lastFailureCode),
                  date: fmt.date(sub.nextRetryTimestamp),
                  end: end ? fmt.dateTime(end) : '',
                })
              : t('flex.billing.dunningLast', { end: end ? fmt.dateTime(end) : '' })}
          </p>
        )}
        <FormAlert text={alert} />
        {done && (
          <p className="notice" role="status">
            {done}
          </p>
        )}
        <div className="billing-actions">
          {live && (
            <button type="button" className="primary" disabled={busy} onClick={openPortal}>
              {sub.status === 'past_due' ? t('flex.billing.updateCard') : t('flex.billing.manage')}
            </button>
          )}
          {live && sub.status !== 'incomplete' && (
            <button type="button" disabled={busy} onClick={() => setCancel(!sub.cancelAtPeriodEnd)}>
              {sub.cancelAtPeriodEnd ? t('flex.billing.resume') : t('flex.billing.cancel')}
            </button>
          )}
          {!live && (
            <Link className="button primary" to="/payment">
              {t('flex.billing.subscribe')}
            </Link>
          )}
          <Link className="button" to="/payment?weeks=1">
            {t('flex.billing.payWeeks')}
          </Link>
          {!live && data.invoices.length > 0 && (
            <button type="button" disabled={busy} onClick={openPortal}>
              {t('flex.billing.manage')}
            </button>
          )}
        </div>
      </section>

      <section className="card" aria-labelledby="billing-credit">
        <h2 id="billing-credit">{t('flex.billing.credit')}</h2>
        <p data-testid="credit-weeks">
          {data.creditWeeks > 0
            ? t('flex.billing.creditWeeks', { count: data.creditWeeks })
            : t('flex.billing.creditNone')}
        </p>
        {data.credits.length > 0 && (
          <ul>
            {data.credits.map((c) => (
              <li key={c.createdTimestamp}>
                {t('flex.billing.creditGranted', { date: fmt.date(c.createdTimestamp) })}
              </li>
            ))}
          </ul>
        )}
      </section>

      <LostHoursCredits credits={data.lostHoursCredits} />

      <section className="card" aria-labelledby="billing-invoices">
        <h2 id="billing-invoices">{t('flex.billing.invoices')}</h2>
        {data.invoices.length === 0 ? (
          <p>{t('flex.billing.noInvoices')}</p>
        ) : (
          <Table caption={t('flex.billing.invoices')}>
            <thead>
              <tr>
                <th scope="col">{t('flex.billing.date')}</th>
                <th scope="col">{t('flex.billing.what')}</th>
                <th scope="col">{t('flex.billing.amount')}</th>
                <th scope="col">{t('flex.billing.state')}</th>
                <th scope="col">{t('flex.billing.receipt')}</th>
              </tr>
            </thead>
            <tbody>
              {data.invoices.map((p) => (
                <tr key={p.id}>
                  <td>{fmt.date(p.settledTimestamp ?? p.createdTimestamp)}</td>
                  <td>{t(`flex.billing.kind.${p.kind}`, { count: p.weeks })}</td>
                  <td>{fmt.money(p.amountCents / 100)}</td>
                  <td>
                    {p.status === 'succeeded' ? t('flex.billing.paid') : t('flex.billing.failed')}
                    {p.refundedWeeks > 0 &&
                      ` · ${t('flex.billing.refunded', { count: p.refundedWeeks })}`}
                  </td>
                  <td>
                    {p.receiptUrl && p.status === 'succeeded' && (
                      <a href={p.receiptUrl} target="_blank" rel="noreferrer">
                        {t('flex.billing.receipt')}
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
    </>
  );
}

/** Each week's credit for lost hours: the week, the time added and what it was lost to. */
function LostHoursCredits({ credits }: { credits: LostHoursCredit[] }) {
  const { t, i18n } = useTranslation();
  // The week is a calendar day (the driver's Monday), not an instant: read it as written.
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const duration = (minutes: number) => {
    const hours = Math.floor(minutes / 60);
    if (hours === 0) return t('flex.billing.lostHours.minutes', { minutes });
    return minutes % 60 === 0
      ? t('flex.billing.lostHours.wholeHours', { hours })
      : t('flex.billing.lostHours.hours', { hours, minutes: minutes % 60 });
  };
  return (
    <section className="card" aria-labelledby="billing-lost-hours">
      <h2 id="billing-lost-hours">{t('flex.billing.lostHours.title')}</h2>
      <p>{t('flex.billing.lostHours.intro')}</p>
      {credits.length === 0 ? (
        <p data-testid="lost-hours-none">{t('flex.billing.lostHours.none')}</p>
      ) : (
        <ul data-testid="lost-hours-credits">
          {credits.map((c) => (
            <li key={c.week}>
              <strong>
                {t('flex.billing.lostHours.week', {
                  date: day.format(Date.parse(`${c.week}T00:00:00Z`)),
                })}
              </strong>
              {': '}
              {t('flex.billing.lostHours.added', { duration: duration(c.minutes) })}
              {' ('}
              {c.reasons
                .map(
                  (r) => `${t(`flex.billing.lostHours.reason.${r.reason}`)} ${duration(r.minutes)}`,
                )
                .join(', ')}
              {')'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
