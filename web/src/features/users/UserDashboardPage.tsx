// /admin/users/:id/dashboard: what the driver's own dashboard says, read through the admin
// endpoint: system on or off, searching or not, service expiry and the offers counted.

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/admin/Spinner.js';
import { LatencyLine } from '../../components/driver/LatencyLine.js';
import { OutcomesSummary } from '../../components/driver/OutcomesSummary.js';
import { useFormat } from '../../hooks/useFormat.js';
import { userQueries } from './queries.js';

export default function UserDashboardPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const dashboard = useQuery(userQueries.userDashboard(id));
  const d = dashboard.data;
  const latency = useQuery(userQueries.userLatency(id));
  const outcomes = useQuery(userQueries.userOutcomes(id));
  const fmt = useFormat();
  const yesNo = (value: boolean) => (value ? t('common.yes') : t('common.no'));

  return (
    <main className="page admin-page">
      <p>
        <Link to={`/admin/users/${encodeURIComponent(id)}`}>{t('admin.users.backToUser')}</Link>
      </p>
      <h1>{t('admin.users.dashboardTitle', { phone: fmt.phone(id) })}</h1>
      {dashboard.isPending && <Spinner />}
      {dashboard.error != null && <p className="error-text">{t('admin.users.dashboardFailed')}</p>}
      {d && (
        <>
          <dl className="stat-grid">
            <div>
              <dt>{t('admin.userTable.columns.status')}</dt>
              <dd>{d.systemOn ? t('admin.userTable.on') : t('admin.userTable.off')}</dd>
            </div>
            <div>
              <dt>{t('admin.users.searching')}</dt>
              <dd>{yesNo(d.searching)}</dd>
            </div>
            <div>
              <dt>{t('admin.users.offersWon')}</dt>
              <dd>{d.offers.won}</dd>
            </div>
            <div>
              <dt>{t('admin.users.offersDisliked')}</dt>
              <dd>{d.offers.disliked}</dd>
            </div>
            <div>
              <dt>{t('admin.users.offersGone')}</dt>
              <dd>{d.offers.gone}</dd>
            </div>
          </dl>
          <dl className="details-list">
            {d.notSearchingBecause && (
              <>
                <dt>{t('admin.users.notSearchingBecause')}</dt>
                <dd>{t(`admin.users.reasons.${d.notSearchingBecause}`)}</dd>
              </>
            )}
            <dt>{t('flex.dashboard.latencyTitle')}</dt>
            <dd>
              <LatencyLine latency={latency.data} />
            </dd>
            <dt>{t('admin.userTable.columns.accountConnected')}</dt>
            <dd>{yesNo(d.proxyInstalled)}</dd>
            <dt>{t('admin.userTable.columns.filtersComplete')}</dt>
            <dd>{yesNo(d.setupComplete)}</dd>
            <dt>{t('admin.userTable.columns.goodStanding')}</dt>
            <dd>{yesNo(d.goodStanding)}</dd>
            <dt>{t('admin.userTable.columns.expirationDate')}</dt>
            <dd>
              {d.expirationDateTimestamp === null
                ? t('common.none')
                : fmt.date(d.expirationDateTimestamp)}
              {d.expired
                ? ` · ${t('admin.users.expired')}`
                : d.expiringSoon
                  ? ` · ${t('admin.users.expiringSoon')}`
                  : ''}
            </dd>
          </dl>
        </>
      )}
      <OutcomesSummary outcomes={outcomes.data} linkFilters={false} />
    </main>
  );
}
