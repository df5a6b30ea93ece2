// /admin/billing: succeeded payments for a day or a date range, totalled and per day, and each
// payment with its driver. Needs the billing-details permission.

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/admin/DateField.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { Table } from '../../components/ui/Table.js';
import { todayIso } from '../../hooks/admin/adminApi.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { adminQueries } from '../../hooks/queries.js';
import { useFormat } from '../../hooks/useFormat.js';

export default function BillingPage() {
  const { t } = useTranslation();
  const { billingDetails } = useAdminRole();
  return (
    <main className="page admin-page">
      <h1>{t('admin.billing.title')}</h1>
      {billingDetails ? <BillingReport /> : <p>{t('admin.billing.noPermission')}</p>}
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
