// /admin/users/:id (the phone number): one Flex user's row in full, with links to their
// dashboard and calendar, and for owners the switch that makes them an admin.
import { normalizePhone } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/admin/Spinner.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useFlexUsers } from '../../hooks/admin/useAdminTables.js';
import { useFormat } from '../../hooks/useFormat.js';
import { AdminRoleControl } from './AdminRoleControl.js';

export default function UserDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const users = useFlexUsers();
  const { isOwner } = useAdminRole();
  const wanted = normalizePhone(id) ?? id;
  const user =
    users.status === 'success'
      ? users.data.find((u) => (normalizePhone(u.phoneNumber) ?? u.phoneNumber) === wanted)
      : undefined;
  const fmt = useFormat();
  const yesNo = (value: boolean) => (value ? t('common.yes') : t('common.no'));
  const day = (ts: number | null) => (ts === null ? t('common.none') : fmt.date(ts));

  return (
    <main className="page admin-page">
      <p>
        <Link to="/admin/users">{t('admin.users.back')}</Link>
      </p>
      {users.status === 'pending' && <Spinner />}
      {users.status === 'error' && <p className="error-text">{t('admin.sendSms.loadFailed')}</p>}
      {users.status === 'success' && !user && (
        <>
          <h1>{t('admin.users.detailTitle')}</h1>
          <p className="error-text">{t('admin.users.notFound')}</p>
        </>
      )}
      {user && (
        <>
          <h1>{user.name}</h1>
          <dl className="details-list">
            <dt>{t('admin.userTable.columns.phone')}</dt>
            <dd>{fmt.phone(user.phoneNumber)}</dd>
            <dt>{t('admin.userTable.columns.referral')}</dt>
            <dd>{user.referral ?? t('common.none')}</dd>
            <dt>{t('admin.userTable.columns.region')}</dt>
            <dd>{user.humanRegion ?? t('common.none')}</dd>
            <dt>{t('admin.userTable.columns.goodStanding')}</dt>
            <dd>{yesNo(user.goodStanding)}</dd>
            <dt>{t('admin.userTable.columns.accountConnected')}</dt>
            <dd>{yesNo(user.proxyInstalled)}</dd>
            <dt>{t('admin.userTable.columns.filtersComplete')}</dt>
            <dd>{yesNo(user.setupComplete)}</dd>
            <dt>{t('admin.users.created')}</dt>
            <dd>{day(user.createDateTimestamp)}</dd>
            <dt>{t('admin.userTable.columns.expirationDate')}</dt>
            <dd>{day(user.expirationDateTimestamp)}</dd>
            <dt>{t('admin.userTable.columns.status')}</dt>
            <dd>{user.status === 'start' ? t('admin.userTable.on') : t('admin.userTable.off')}</dd>
            <dt>{t('admin.users.payouts')}</dt>
            <dd>{user.stripeExpressId ?? t('common.none')}</dd>
          </dl>
          <p className="actions">
            <Link to={`/admin/users/${encodeURIComponent(user.phoneNumber)}/dashboard`}>
              {t('admin.users.dashboard')}
            </Link>
            <Link to={`/flex/calendar/${encodeURIComponent(user.phoneNumber)}`}>
              {t('admin.users.calendar')}
            </Link>
          </p>
          {isOwner && <AdminRoleControl user={user} />}
        </>
      )}
    </main>
  );
}
