// /admin/users: every Flex (or Spark) user, filtered (standing, connected, filters complete, region,
// service ending within N days), searchable, sortable and paged; a row leads to the user's details
// and dashboard.
import type { Product, UserRow } from '@blockcatch/sdk';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Pager } from '../../components/admin/Pager.js';
import { ProductSwitch } from '../../components/admin/ProductSwitch.js';
import { SearchBox } from '../../components/admin/SearchBox.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { TriStateSelect } from '../../components/admin/TriStateSelect.js';
import { UserTable } from '../../components/admin/UserTable.js';
import { Input } from '../../components/ui/Input.js';
import { useUsers } from '../../hooks/admin/useAdminTables.js';
import {
  expiringDays,
  filterUserRows,
  NO_USER_FILTERS,
  regionsOf,
  type UserListFilters,
} from './user-filters.js';
import { useUsersTable } from './useUsersTable.js';

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
  const [filters, setFilters] = useState<UserListFilters>(NO_USER_FILTERS);
  // The clock "expiring within" counts from: the moment the list was opened.
  const [now] = useState(() => Date.now());
  const filtered = useMemo(() => filterUserRows(rows, filters, now), [rows, filters, now]);
  const regions = useMemo(() => regionsOf(rows), [rows]);
  const table = useUsersTable(filtered);
  const set = (change: Partial<UserListFilters>) => setFilters((f) => ({ ...f, ...change }));
  const daysWrong =
    filters.expiringWithinDays.trim() !== '' && expiringDays(filters.expiringWithinDays) === null;
  // Flex users have their own pages; Spark users are listed only.
  const userPath = (row: UserRow) => `/admin/users/${encodeURIComponent(row.phoneNumber)}`;
  return (
    <>
      <fieldset className="filter-grid user-filters">
        <legend>{t('admin.users.filters')}</legend>
        <TriStateSelect
          label={t('admin.users.goodStanding')}
          value={filters.goodStanding}
          onChange={(goodStanding) => set({ goodStanding })}
        />
        <TriStateSelect
          label={t('admin.users.connected')}
          value={filters.proxyInstalled}
          onChange={(proxyInstalled) => set({ proxyInstalled })}
        />
        <TriStateSelect
          label={t('admin.users.setupComplete')}
          value={filters.setupComplete}
          onChange={(setupComplete) => set({ setupComplete })}
        />
        {product === 'flex' && (
          <RegionSelect
            regions={regions}
            value={filters.region}
            onChange={(region) => set({ region })}
          />
        )}
        <Input
          label={t('admin.users.expiringWithin')}
          type="number"
          min={0}
          max={366}
          step="1"
          inputMode="numeric"
          suffix={t('admin.users.daysUnit')}
          placeholder={t('common.all')}
          value={filters.expiringWithinDays}
          error={daysWrong ? t('admin.users.expiringWrong') : undefined}
          onChange={(expiringWithinDays) => set({ expiringWithinDays })}
        />
      </fieldset>
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

function RegionSelect({
  regions,
  value,
  onChange,
}: {
  regions: string[];
  value: string;
  onChange(region: string): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor="users-region">{t('admin.users.region')}</label>
      <select id="users-region" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('common.all')}</option>
        {regions.map((region) => (
          <option key={region} value={region}>
            {region}
          </option>
        ))}
      </select>
    </div>
  );
}
