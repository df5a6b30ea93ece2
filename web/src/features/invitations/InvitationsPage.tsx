// /admin/invitations: every invitation drivers sent, newest first: who was invited, whether they
// signed up, and whether the inviter already got the free week.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Pager } from '../../components/admin/Pager.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { Table } from '../../components/ui/Table.js';
import { useFlexUsers, useInvitations } from '../../hooks/admin/useAdminTables.js';
import { usePaging } from '../../hooks/admin/usePaging.js';
import { useFormat } from '../../hooks/useFormat.js';
import { invitationCounts, invitationRows } from '../../lib/admin/invitee-list.js';

// One empty list for every render before the data arrives, so paging stays memoised.
const NO_ROWS: never[] = [];

export default function InvitationsPage() {
  const { t } = useTranslation();
  const users = useFlexUsers();
  const invitations = useInvitations();
  const userRows = users.data;
  const invitationList = invitations.data;
  const rows = useMemo(
    () => (userRows && invitationList ? invitationRows(invitationList, userRows) : undefined),
    [userRows, invitationList],
  );
  const failed = users.status === 'error' || invitations.status === 'error';
  const { page: shown, pager } = usePaging(rows ?? NO_ROWS);
  // The figures Leads and Notifications show too, counted the same way.
  const counts = useMemo(
    () => (userRows && invitationList ? invitationCounts(invitationList, userRows) : undefined),
    [userRows, invitationList],
  );
  const fmt = useFormat();

  return (
    <main className="page admin-page">
      <h1>{t('admin.invitations.title')}</h1>
      {failed && <p className="error-text">{t('admin.notifications.loadFailed')}</p>}
      {!failed && !rows && <Spinner />}
      {rows && (
        <>
          {counts && (
            <dl className="stat-grid defined-stats" data-testid="invitation-counts">
              {(['sent', 'invitees', 'signedUp', 'notSignedUp', 'freeWeeks'] as const).map(
                (key) => (
                  <div key={key}>
                    <dt>{t(`admin.invitations.counts.${key}`)}</dt>
                    <dd data-count={key}>{fmt.count(counts[key])}</dd>
                    <dd className="stat-definition">{t(`admin.invitations.definitions.${key}`)}</dd>
                  </div>
                ),
              )}
            </dl>
          )}
          <p>
            <Link to="/admin/notifications">{t('admin.tools.notificationsLink')}</Link>
            {' · '}
            <Link to="/admin/leads">{t('admin.tools.leadsLink')}</Link>
          </p>
          <Table caption={t('admin.invitations.title')}>
            <thead>
              <tr>
                <th scope="col">{t('admin.invitations.invited')}</th>
                <th scope="col">{t('admin.userTable.columns.phone')}</th>
                <th scope="col">{t('admin.userTable.columns.name')}</th>
                <th scope="col">{t('admin.invitations.referralCode')}</th>
                <th scope="col">{t('admin.invitations.freeWeek')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.items.map((row) => (
                <tr key={`${row.phoneNumber}-${row.dateInvitedTimestamp}`}>
                  <td>{fmt.date(row.dateInvitedTimestamp)}</td>
                  <td>{fmt.phone(row.phoneNumber)}</td>
                  <td>{row.name ?? t('admin.userTable.unregistered')}</td>
                  <td>{row.referralCode ?? ''}</td>
                  <td>{row.freeWeek ? t('common.yes') : t('common.no')}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager {...pager} />
        </>
      )}
    </main>
  );
}
