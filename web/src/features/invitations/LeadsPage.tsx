// /admin/leads: people invited who have not signed up yet (invited, no free week granted), with
// who invited them, searchable, and a way to message them.
import { searchRecipients } from '@blockcatch/sdk';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Pager } from '../../components/admin/Pager.js';
import { SearchBox } from '../../components/admin/SearchBox.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { Table } from '../../components/ui/Table.js';
import { useFlexUsers, useInvitations } from '../../hooks/admin/useAdminTables.js';
import { usePaging } from '../../hooks/admin/usePaging.js';
import { useFormat } from '../../hooks/useFormat.js';
import { buildInviteeList } from '../../lib/admin/invitee-list.js';

const UNREGISTERED = { registered: 'no' } as const;

export default function LeadsPage() {
  const { t } = useTranslation();
  const users = useFlexUsers();
  const invitations = useInvitations();
  const userRows = users.data;
  const invitationList = invitations.data;
  const list = useMemo(
    () => buildInviteeList(userRows, invitationList, UNREGISTERED),
    [userRows, invitationList],
  );
  const [searchText, setSearchText] = useState('');
  const query = useDeferredValue(searchText);
  const leads = useMemo(
    () =>
      list.status === 'ready'
        ? searchRecipients(
            list.invitees.map((i) => ({ ...i, name: '', referral: i.referralCode })),
            query,
          ).sort((a, b) => b.dateInvitedTimestamp - a.dateInvitedTimestamp)
        : [],
    [list, query],
  );
  const { page: shown, pager, toFirstPage } = usePaging(leads);
  const failed = users.status === 'error' || invitations.status === 'error';
  const fmt = useFormat();

  return (
    <main className="page admin-page">
      <h1>{t('admin.leads.title')}</h1>
      <p>{t('admin.leads.intro')}</p>
      {failed && <p className="error-text">{t('admin.notifications.loadFailed')}</p>}
      {!failed && list.status === 'loading' && <Spinner />}
      {list.status === 'empty' && <p>{t('admin.notifications.noInvitations')}</p>}
      {list.status === 'ready' && (
        <>
          <p data-testid="lead-total">
            {t('admin.leads.total', { count: list.invitees.length })}{' '}
            <Link to="/admin/notifications">{t('admin.leads.message')}</Link>
          </p>
          <SearchBox
            value={searchText}
            onChange={(text) => {
              setSearchText(text);
              toFirstPage();
            }}
          />
          <Table caption={t('admin.leads.title')}>
            <thead>
              <tr>
                <th scope="col">{t('admin.userTable.columns.phone')}</th>
                <th scope="col">{t('admin.invitations.invited')}</th>
                <th scope="col">{t('admin.leads.invitedBy')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.items.map((lead) => (
                <tr key={lead.phoneNumber}>
                  <td>{fmt.phone(lead.phoneNumber)}</td>
                  <td>{fmt.date(lead.dateInvitedTimestamp)}</td>
                  <td>{lead.referralCode ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager {...pager} unit="leads" />
        </>
      )}
    </main>
  );
}
