// /admin/users: every Flex (or Spark) user, searchable, sortable and paged; a row leads to the
// user's details and dashboard.
import type { Product, UserRow } from '@blockcatch/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Pager } from '../../components/admin/Pager.js';
import { ProductSwitch } from '../../components/admin/ProductSwitch.js';
import { SearchBox } from '../../components/admin/SearchBox.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { UserTable } from '../../components/admin/UserTable.js';
import { useUsers } from '../../hooks/admin/useAdminTables.js';
import { useUsersTable } from '../../hooks/admin/useUsersTable.js';

export default function UsersPage() {
  const { t } = useTranslation();
  const [product, setProduct] = useState<Product>('flex');
  const users = useUsers(product);
  return (
    <main className="page admin-page">
      <h1>{t('admin.users.title')}</h1>
      <ProductSwitch value={product} onChange={setProduct} legend={t('admin.users.product')} />
      {users.status === 'pending' && <Spinner />}
      {users.status === 'error' && <p className="error-text">{t('admin.sendSms.loadFailed')}</p>}
      {users.status === 'success' && (
        <UsersList key={product} rows={users.data} product={product} />
      )}
    </main>
  );
}

function UsersList({ rows, product }: { rows: readonly UserRow[]; product: Product }) {
  const { t } = useTranslation();
  const table = useUsersTable(rows);
  // Flex users have their own pages; Spark users are listed only.
  const userPath = (row: UserRow) => `/admin/users/${encodeURIComponent(row.phoneNumber)}`;
  return (
    <>
      <p data-testid="user-total">{t('admin.users.total', { count: table.page.total })}</p>
      <SearchBox value={table.searchText} onChange={table.search} />
      <UserTable
        rows={table.page.items}
        caption={t('admin.users.caption')}
        sort={table.sort}
        {...(product === 'flex'
          ? {
              nameCell: (row: UserRow, name) => <Link to={userPath(row)}>{name}</Link>,
              actions: {
                label: t('admin.users.dashboard'),
                cell: (row: UserRow) => (
                  <Link
                    to={`${userPath(row)}/dashboard`}
                    aria-label={t('admin.users.dashboardOf', { name: row.name })}
                  >
                    {t('admin.users.dashboard')}
                  </Link>
                ),
              },
            }
          : {})}
      />
      <Pager
        page={table.page.page}
        pageCount={table.page.pageCount}
        total={table.page.total}
        unit="users"
        rowsPerPage={table.rowsPerPage}
        onPage={table.setPageNumber}
        onRowsPerPage={table.setRowsPerPage}
      />
    </>
  );
}
