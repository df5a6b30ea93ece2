// /admin: the guided tour with its numbers from the user tables, and the way to the admin tools.
// A role sees only what it may use: no payments step or card without billing details, no Send SMS
// link unless it is the owner's.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '../../components/admin/Spinner.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useUsers } from '../../hooks/admin/useAdminTables.js';
import { useFormat } from '../../hooks/useFormat.js';
import { todayIso } from '../../lib/billing-days.js';
import { adminQueries } from '../../lib/queries.js';
import { adminHomeQueries } from './queries.js';
import { countUsers } from './user-counts.js';

const TOUR_KEYS = ['active', 'database', 'payments'] as const;
const TOUR_DISMISSED_KEY = 'admin.tourDismissed';

export default function AdminDashboardPage() {
  const { t } = useTranslation();
  const role = useAdminRole();
  // The payments step leads to Billing: only for roles that may open it.
  const tour = TOUR_KEYS.filter((key) => key !== 'payments' || role.billingDetails);
  const STEPS = tour.length;
  const [step, setStep] = useState(1);
  // The figures show at once; the tour is an overlay over them, shown until dismissed.
  const [touring, setTouring] = useState(
    () => window.localStorage.getItem(TOUR_DISMISSED_KEY) !== 'true',
  );
  const closeTour = () => {
    window.localStorage.setItem(TOUR_DISMISSED_KEY, 'true');
    setTouring(false);
  };
  const openTour = () => {
    setStep(1);
    setTouring(true);
  };
  const highlight = (n: number) => (touring && step === n ? 'card tour-target' : 'card');
  return (
    <main className="page admin-page">
      <div className="admin-heading">
        <h1>{t('admin.dashboard.title')}</h1>
        {!touring && (
          <button type="button" className="ghost" onClick={openTour}>
            {t('admin.dashboard.tour.show')}
          </button>
        )}
      </div>
      <div className="dashboard-grid">
        <section className={highlight(1)} aria-labelledby="figures-active">
          <h2 id="figures-active">{t('admin.dashboard.tour.active')}</h2>
          <ActiveUsers />
        </section>
        <section className={highlight(2)} aria-labelledby="figures-database">
          <h2 id="figures-database">{t('admin.dashboard.tour.database')}</h2>
          <UserDatabase />
        </section>
        {role.billingDetails && (
          <section className={highlight(3)} aria-labelledby="figures-payments">
            <h2 id="figures-payments">{t('admin.dashboard.tour.payments')}</h2>
            <PaidUsers />
          </section>
        )}
      </div>
      {touring && (
        <section className="tour-overlay" aria-labelledby="tour-heading" aria-live="polite">
          <h2 id="tour-heading">
            {t('admin.dashboard.step', { step, total: STEPS })}:{' '}
            {t(`admin.dashboard.tour.${tour[step - 1]}`)}
          </h2>
          <div className="actions">
            <button type="button" onClick={() => setStep(step - 1)} disabled={step === 1}>
              {t('admin.dashboard.tour.back')}
            </button>
            {step < STEPS ? (
              <button type="button" className="primary" onClick={() => setStep(step + 1)}>
                {t('admin.dashboard.tour.next')}
              </button>
            ) : (
              <button type="button" className="primary" onClick={closeTour}>
                {t('admin.dashboard.tour.done')}
              </button>
            )}
            <button type="button" className="ghost" onClick={closeTour}>
              {t('admin.dashboard.tour.close')}
            </button>
          </div>
        </section>
      )}
      <section className="card" aria-labelledby="invitation-backlog">
        <h2 id="invitation-backlog">{t('admin.dashboard.invitationBacklog.title')}</h2>
        <InvitationBacklog />
      </section>
      <section className="admin-section" aria-labelledby="admin-tools-heading">
        <h2 id="admin-tools-heading">{t('admin.tools.title')}</h2>
        <ul>
          {role.isOwner && (
            <li>
              <Link to="/admin/tools">{t('admin.dashboard.sendSmsLink')}</Link>
            </li>
          )}
          <li>
            <Link to="/admin/support">{t('admin.support.title')}</Link>
          </li>
          <li>
            <Link to="/admin/notifications">{t('admin.tools.notificationsLink')}</Link>
          </li>
          <li>
            <Link to="/admin/leads">{t('admin.tools.leadsLink')}</Link>
          </li>
        </ul>
      </section>
    </main>
  );
}

function ActiveUsers() {
  const { t } = useTranslation();
  const users = useUsers('flex');
  if (users.status === 'pending') return <Spinner />;
  if (users.status === 'error')
    return <p className="error-text">{t('admin.sendSms.loadFailed')}</p>;
  const counts = countUsers(users.data);
  return (
    <dl className="stat-grid" data-testid="tour-counts">
      <div>
        <dt>{t('admin.dashboard.active')}</dt>
        <dd>{counts.active}</dd>
      </div>
      <div>
        <dt>{t('admin.dashboard.registered')}</dt>
        <dd>{counts.registered}</dd>
      </div>
      <div>
        <dt>{t('admin.dashboard.disconnected')}</dt>
        <dd>{counts.disconnected}</dd>
      </div>
    </dl>
  );
}

function UserDatabase() {
  const { t } = useTranslation();
  const flex = useUsers('flex').data;
  const spark = useUsers('spark').data;
  return (
    <>
      <dl className="stat-grid">
        <div>
          <dt>{t('admin.sendSms.flex')}</dt>
          <dd>{flex ? flex.length : '…'}</dd>
        </div>
        <div>
          <dt>{t('admin.sendSms.spark')}</dt>
          <dd>{spark ? spark.length : '…'}</dd>
        </div>
      </dl>
      <p>
        <Link to="/admin/users">{t('admin.dashboard.openUsers')}</Link>
      </p>
    </>
  );
}

/** Payments today, for roles with billing details (the only ones shown it). */
function PaidUsers() {
  const { t } = useTranslation();
  const today = todayIso();
  const billing = useQuery(adminQueries.billing(today, today));
  return (
    <>
      {billing.status === 'success' && (
        <dl className="stat-grid">
          <div>
            <dt>{t('admin.dashboard.paidToday')}</dt>
            <dd>{billing.data.totals.payments}</dd>
          </div>
        </dl>
      )}
      {billing.status === 'pending' && <Spinner />}
      <p>
        <Link to="/admin/billing">{t('admin.dashboard.openBilling')}</Link>
      </p>
    </>
  );
}

/** Invitation texts past the service's hourly total, kept for later hours: how many, and when. */
function InvitationBacklog() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const backlog = useQuery(adminHomeQueries.invitationBacklog());
  if (backlog.status === 'pending') return <Spinner />;
  if (backlog.status === 'error')
    return <p className="error-text">{t('admin.sendSms.loadFailed')}</p>;
  const { waiting, nextAt, perHour } = backlog.data;
  return (
    <p data-testid="invitation-backlog">
      {waiting === 0 || nextAt === null
        ? t('admin.dashboard.invitationBacklog.none', { perHour })
        : t('admin.dashboard.invitationBacklog.waiting', {
            count: waiting,
            perHour,
            time: fmt.dateTime(nextAt),
          })}
    </p>
  );
}
