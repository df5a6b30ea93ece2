// /admin/billing: the subscription business now (active subscriptions, weekly revenue, failed
// payments in dunning, cancellations, disputes, refunds), then succeeded payments for a day or a
// date range, totalled and per day, each with its driver and a refund of whole weeks with a reason.
// Needs the billing-details permission.

import type { BillingResponse } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/admin/DateField.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { Table } from '../../components/ui/Table.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useFormat } from '../../hooks/useFormat.js';
import { todayIso } from '../../lib/billing-days.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { adminQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { paymentQueries } from './queries.js';

export default function BillingPage() {
  const { t } = useTranslation();
  const { billingDetails } = useAdminRole();
  return (
    <main className="page admin-page">
      <h1>{t('admin.billing.title')}</h1>
      {billingDetails ? (
        <>
          <Overview />
          <BillingReport />
        </>
      ) : (
        <p>{t('admin.billing.noPermission')}</p>
      )}
    </main>
  );
}

function BillingReport() {
  const { t } = useTranslation();
  const today = todayIso();
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  // An end before the start reads as the one start day rather than an error.
  const end = to.localeCompare(from) < 0 ? from : to;
  const report = useQuery(adminQueries.billing(from, end));
  const fmt = useFormat();
  const data = report.data;

  return (
    <>
      <div className="toolbar">
        <DateField
          label={t('admin.billing.from')}
          value={from}
          onChange={(v) => setFrom(v ?? today)}
        />
        <DateField label={t('admin.billing.to')} value={to} onChange={(v) => setTo(v ?? from)} />
        <button
          type="button"
          onClick={() => {
            setFrom(today);
            setTo(today);
          }}
        >
          {t('admin.billing.today')}
        </button>
      </div>
      {report.isPending && <Spinner />}
      {report.error != null && <p className="error-text">{t('admin.billing.loadFailed')}</p>}
      {data && (
        <>
          <dl className="stat-grid" data-testid="billing-totals">
            <div>
              <dt>{t('admin.billing.payments')}</dt>
              <dd>{data.totals.payments}</dd>
            </div>
            <div>
              <dt>{t('admin.billing.weeks')}</dt>
              <dd>{data.totals.weeks}</dd>
            </div>
            <div>
              <dt>{t('admin.billing.amount')}</dt>
              <dd>{fmt.money(data.totals.amountCents / 100)}</dd>
            </div>
          </dl>
          {data.days.length > 1 && (
            <section className="admin-section" aria-labelledby="billing-days">
              <h2 id="billing-days">{t('admin.billing.perDay')}</h2>
              <Table caption={t('admin.billing.perDay')}>
                <thead>
                  <tr>
                    <th scope="col">{t('admin.billing.day')}</th>
                    <th scope="col">{t('admin.billing.payments')}</th>
                    <th scope="col">{t('admin.billing.weeks')}</th>
                    <th scope="col">{t('admin.billing.amount')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.days.map((day) => (
                    <tr key={day.day}>
                      <td>{day.day}</td>
                      <td>{day.payments}</td>
                      <td>{day.weeks}</td>
                      <td>{fmt.money(day.amountCents / 100)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </section>
          )}
          <section className="admin-section" aria-labelledby="billing-payments">
            <h2 id="billing-payments">{t('admin.billing.paymentList')}</h2>
            {data.Items.length === 0 ? (
              <p>{t('admin.billing.none')}</p>
            ) : (
              <Table caption={t('admin.billing.paymentList')}>
                <thead>
                  <tr>
                    <th scope="col">{t('admin.userTable.columns.name')}</th>
                    <th scope="col">{t('admin.userTable.columns.phone')}</th>
                    <th scope="col">{t('admin.billing.weeks')}</th>
                    <th scope="col">{t('admin.billing.amount')}</th>
                    <th scope="col">{t('admin.billing.paidAt')}</th>
                    <th scope="col">{t('admin.billing.refund')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.Items.map((payment) => (
                    <tr key={payment.id}>
                      <td>{payment.name}</td>
                      <td>{fmt.phone(payment.phoneNumber)}</td>
                      <td>{payment.weeks}</td>
                      <td>{fmt.money(payment.amountCents / 100)}</td>
                      <td>{fmt.dateTime(payment.settledTimestamp ?? payment.createdTimestamp)}</td>
                      <td>
                        <RefundForm payment={payment} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </section>
        </>
      )}
    </>
  );
}

function Overview() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const overview = useQuery(paymentQueries.overview());
  const data = overview.data;
  const when = (ts: number | null) => (ts === null ? '—' : fmt.dateTime(ts));
  if (overview.isPending) return <Spinner />;
  if (!data) return <p className="error-text">{t('admin.billing.loadFailed')}</p>;
  return (
    <section className="admin-section" aria-labelledby="billing-overview">
      <h2 id="billing-overview">{t('admin.billing.overview')}</h2>
      <dl className="stat-grid" data-testid="billing-overview">
        <div>
          <dt>{t('admin.billing.active')}</dt>
          <dd>{data.activeSubscriptions}</dd>
        </div>
        <div>
          <dt>{t('admin.billing.weeklyRevenue')}</dt>
          <dd>{fmt.money(data.weeklyRevenueCents / 100)}</dd>
        </div>
        <div>
          <dt>{t('admin.billing.lastSevenDays')}</dt>
          <dd>{fmt.money(data.lastSevenDaysCents / 100)}</dd>
        </div>
        <div>
          <dt>{t('admin.billing.dunning')}</dt>
          <dd>{data.dunning.length}</dd>
        </div>
      </dl>
      <h3>{t('admin.billing.dunning')}</h3>
      {data.dunning.length === 0 ? (
        <p>{t('admin.billing.none')}</p>
      ) : (
        <Table caption={t('admin.billing.dunning')}>
          <thead>
            <tr>
              <th scope="col">{t('admin.userTable.columns.name')}</th>
              <th scope="col">{t('admin.userTable.columns.phone')}</th>
              <th scope="col">{t('admin.billing.attempts')}</th>
              <th scope="col">{t('admin.billing.failingSince')}</th>
              <th scope="col">{t('admin.billing.nextRetry')}</th>
              <th scope="col">{t('admin.billing.paidUntil')}</th>
            </tr>
          </thead>
          <tbody>
            {data.dunning.map((d) => (
              <tr key={d.userId}>
                <td>{d.name}</td>
                <td>{fmt.phone(d.phoneNumber)}</td>
                <td>{d.attempts}</td>
                <td>{when(d.failedSinceTimestamp)}</td>
                <td>{when(d.nextRetryTimestamp)}</td>
                <td>{when(d.expirationDateTimestamp)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h3>{t('admin.billing.cancellations')}</h3>
      {data.cancellations.length === 0 ? (
        <p>{t('admin.billing.none')}</p>
      ) : (
        <Table caption={t('admin.billing.cancellations')}>
          <thead>
            <tr>
              <th scope="col">{t('admin.userTable.columns.name')}</th>
              <th scope="col">{t('admin.userTable.columns.phone')}</th>
              <th scope="col">{t('admin.billing.ends')}</th>
              <th scope="col">{t('admin.billing.canceledAt')}</th>
            </tr>
          </thead>
          <tbody>
            {data.cancellations.map((c) => (
              <tr key={`${c.userId}-${c.endsTimestamp}`}>
                <td>{c.name}</td>
                <td>{fmt.phone(c.phoneNumber)}</td>
                <td>{when(c.endsTimestamp)}</td>
                <td>{when(c.canceledTimestamp)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h3>{t('admin.billing.disputes')}</h3>
      {data.flags.length === 0 ? (
        <p>{t('admin.billing.none')}</p>
      ) : (
        <Table caption={t('admin.billing.disputes')}>
          <thead>
            <tr>
              <th scope="col">{t('admin.userTable.columns.name')}</th>
              <th scope="col">{t('admin.userTable.columns.phone')}</th>
              <th scope="col">{t('admin.billing.amount')}</th>
              <th scope="col">{t('admin.billing.reason')}</th>
              <th scope="col">{t('admin.billing.day')}</th>
            </tr>
          </thead>
          <tbody>
            {data.flags.map((f) => (
              <tr key={`${f.userId}-${f.createdTimestamp}`}>
                <td>{f.name}</td>
                <td>{fmt.phone(f.phoneNumber)}</td>
                <td>{fmt.money(f.amountCents / 100)}</td>
                <td>{f.reason}</td>
                <td>{fmt.dateTime(f.createdTimestamp)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h3>{t('admin.billing.refunds')}</h3>
      {data.refunds.length === 0 ? (
        <p>{t('admin.billing.none')}</p>
      ) : (
        <Table caption={t('admin.billing.refunds')}>
          <thead>
            <tr>
              <th scope="col">{t('admin.userTable.columns.name')}</th>
              <th scope="col">{t('admin.billing.weeks')}</th>
              <th scope="col">{t('admin.billing.amount')}</th>
              <th scope="col">{t('admin.billing.reason')}</th>
              <th scope="col">{t('admin.billing.refundedBy')}</th>
              <th scope="col">{t('admin.billing.day')}</th>
            </tr>
          </thead>
          <tbody>
            {data.refunds.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.weeks}</td>
                <td>{fmt.money(r.amountCents / 100)}</td>
                <td>{r.reason}</td>
                <td>{r.refundedBy}</td>
                <td>{fmt.dateTime(r.createdTimestamp)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** Refunds whole weeks of one payment, with the reason kept beside the refund. */
function RefundForm({ payment }: { payment: BillingResponse['Items'][number] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const left = payment.weeks - payment.refundedWeeks;
  const [open, setOpen] = useState(false);
  const [weeks, setWeeks] = useState('1');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (left <= 0 || payment.amountCents === 0) return null;
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        {t('admin.billing.refund')}
      </button>
    );
  }
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await gateway.admin.refund({ paymentId: payment.id, weeks: Number(weeks), reason });
      setMessage(t('admin.billing.refundDone'));
      await queryClient.invalidateQueries({ queryKey: adminQueries.all });
    } catch (error) {
      setMessage(errorMessage(t, error, t('admin.billing.refundFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="refund-form" onSubmit={onSubmit} aria-label={t('admin.billing.refundTitle')}>
      <label>
        {t('admin.billing.refundWeeks')}
        <input
          type="number"
          min={1}
          max={left}
          value={weeks}
          onChange={(e) => setWeeks(e.target.value)}
        />
      </label>
      <label>
        {t('admin.billing.refundReason')}
        <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
      </label>
      <button type="submit" disabled={busy}>
        {t('admin.billing.refundSubmit')}
      </button>
      {message && <p role="status">{message}</p>}
    </form>
  );
}
