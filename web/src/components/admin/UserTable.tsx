// The admin user table: the same columns for Flex, Spark and invitee rows, optionally with a
// checkbox per row (review) or sortable headers (users). Callers page their rows (at most a hundred
// to a page), so every row of the page is drawn and the table scrolls with the page under its
// sticky header: one scrollbar, never a box scrolling inside the page.
import { formatDayShort, localTimeZone, type UserStatus } from '@blockcatch/sdk';
import type { TFunction } from 'i18next';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Formatters, useFormat } from '../../hooks/useFormat.js';
import type { Marks, SkipReason } from '../../lib/admin/review-marks.js';
import type { Selection } from '../../lib/admin/selection.js';
import type { SortColumn, SortDirection } from '../../lib/admin/user-sorting.js';
import { Badge } from '../ui/Badge.js';
import { Checkbox } from '../ui/Checkbox.js';

/** What a row needs to be drawn: a Flex or Spark user, or a merged invitee. */
export interface TableRow {
  readonly name: string;
  readonly phoneNumber: string;
  readonly referral: string | null;
  readonly humanRegion?: string | null;
  readonly driverOptions?: { readonly deliveryArea: string | null };
  readonly goodStanding: boolean;
  readonly proxyInstalled: boolean;
  readonly setupComplete: boolean;
  readonly expirationDateTimestamp: number | null;
  readonly stripeExpressId: string | null;
  readonly status: UserStatus | null;
  readonly unregistered?: boolean;
}

const COLUMNS = [
  ['name', 'name'],
  ['phoneNumber', 'phone'],
  ['referral', 'referral'],
  ['region', 'region'],
  ['goodStanding', 'goodStanding'],
  ['proxyInstalled', 'accountConnected'],
  ['setupComplete', 'filtersComplete'],
  ['expirationDateTimestamp', 'expirationDate'],
  ['status', 'status'],
] as const satisfies readonly (readonly [SortColumn, string])[];

export interface TableSelection {
  selected: Selection;
  /** Rows that cannot be sent to: struck through, not selectable, with the reason. */
  marks?: Marks;
  /** Whether all, some or none of the listed rows are selected, for the header checkbox. */
  state: 'all' | 'some' | 'none';
  onToggle(phoneNumber: string): void;
  onToggleAll(): void;
}

export interface TableSort {
  column: SortColumn | undefined;
  direction: SortDirection;
  onSort(column: SortColumn): void;
}

export function UserTable<T extends TableRow>({
  rows,
  caption,
  selection,
  sort,
  nameCell,
  actions,
  notificationColumns = false,
}: {
  rows: readonly T[];
  caption: string;
  selection?: TableSelection;
  sort?: TableSort;
  /** Replaces the name cell's text, e.g. with a link to the user. */
  nameCell?: (row: T, name: ReactNode) => ReactNode;
  /** An extra last column, e.g. a link to the user's dashboard. */
  actions?: { label: string; cell: (row: T) => ReactNode };
  /**
   * The notifications review's columns: headers Nombre and Teléfono in both languages and the
   * expiration date as DD/MM/YY, with the full date as its tooltip.
   */
  notificationColumns?: boolean;
}) {
  const { t } = useTranslation();
  const timeZone = localTimeZone();
  const fmt = useFormat();
  const label = (key: (typeof COLUMNS)[number][1]) => columnLabel(t, key, notificationColumns);

  return (
    // A scrollable region must be reachable by keyboard (WCAG 2.1.1), hence focusable and named.
    <section
      className="table-scroll user-table"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container needs focus to scroll by keyboard
      tabIndex={0}
      aria-label={caption}
    >
      <table className="table-cards" aria-rowcount={rows.length + 1}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="check-cell">
                <SelectAllBox selection={selection} label={t('admin.userTable.selectAll')} />
              </th>
            )}
            {COLUMNS.map(([column, key]) => (
              <HeaderCell key={column} label={label(key)} column={column} sort={sort} />
            ))}
            {actions && <th scope="col">{actions.label}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <Row
              // biome-ignore lint/suspicious/noArrayIndexKey: a number may be listed twice (an invitee beside a user); its place keeps the key unique
              key={`${row.phoneNumber}-${index}`}
              row={row}
              index={index}
              checked={selection?.selected.has(row.phoneNumber) ?? false}
              mark={selection?.marks?.get(row.phoneNumber)}
              onToggle={selection?.onToggle}
              notificationColumns={notificationColumns}
              nameCell={nameCell}
              actions={actions}
              timeZone={timeZone}
              fmt={fmt}
              t={t}
            />
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="empty-table">{t('admin.userTable.noResults')}</p>}
    </section>
  );
}

interface RowProps<T extends TableRow> {
  row: T;
  index: number;
  checked: boolean;
  mark: SkipReason | undefined;
  /** Present when rows have a checkbox. */
  onToggle: ((phoneNumber: string) => void) | undefined;
  notificationColumns: boolean;
  nameCell: ((row: T, name: ReactNode) => ReactNode) | undefined;
  actions: { label: string; cell: (row: T) => ReactNode } | undefined;
  timeZone: string;
  fmt: Formatters;
  t: TFunction;
}

/** One row. Memoised: ticking one checkbox draws that row again, not the whole page. */
const Row = memo(function Row<T extends TableRow>({
  row,
  index,
  checked,
  mark,
  onToggle,
  notificationColumns,
  nameCell,
  actions,
  timeZone,
  fmt,
  t,
}: RowProps<T>) {
  const label = (key: (typeof COLUMNS)[number][1]) => columnLabel(t, key, notificationColumns);
  const reason = mark ? t(`admin.review.reason.${mark}`) : null;
  const name = row.unregistered ? t('admin.userTable.unregistered') : row.name;
  const nameText = (
    <>
      <span className={row.stripeExpressId ? 'highlight-name' : undefined}>
        {name}
        {row.stripeExpressId && (
          <span className="visually-hidden"> ({t('admin.userTable.reseller')})</span>
        )}
      </span>
      {reason && <span className="badge badge-danger mark-reason">{reason}</span>}
    </>
  );
  return (
    <tr
      aria-rowindex={index + 2}
      className={reason ? 'marked' : checked ? 'selected' : undefined}
      data-mark={mark}
    >
      {onToggle && (
        <td className="check-cell">
          <Checkbox
            checked={checked}
            disabled={reason !== null}
            onChange={() => onToggle?.(row.phoneNumber)}
            aria-label={
              reason
                ? t('admin.review.notSelectable', { name, reason })
                : t('admin.userTable.selectUser', { name })
            }
          />
        </td>
      )}
      <td data-label={label('name')}>{nameCell ? nameCell(row, nameText) : nameText}</td>
      <td data-label={label('phone')}>{fmt.phone(row.phoneNumber)}</td>
      <td data-label={label('referral')}>{row.referral ?? ''}</td>
      <td data-label={label('region')}>
        {row.humanRegion ?? row.driverOptions?.deliveryArea ?? ''}
      </td>
      <td data-label={label('goodStanding')}>{yesNo(t, row.goodStanding)}</td>
      <td data-label={label('accountConnected')}>{yesNo(t, row.proxyInstalled)}</td>
      <td data-label={label('filtersComplete')}>{yesNo(t, row.setupComplete)}</td>
      <td data-label={label('expirationDate')}>
        {row.expirationDateTimestamp === null ? (
          t('admin.userTable.none')
        ) : notificationColumns ? (
          <time
            dateTime={new Date(row.expirationDateTimestamp).toISOString()}
            title={fmt.date(row.expirationDateTimestamp)}
          >
            {formatDayShort(row.expirationDateTimestamp, timeZone)}
          </time>
        ) : (
          fmt.date(row.expirationDateTimestamp)
        )}
        {row.expirationDateTimestamp !== null && row.expirationDateTimestamp < Date.now() && (
          <>
            {' '}
            <Badge tone="danger" className="lapsed">
              {t('admin.userTable.lapsed')}
            </Badge>
          </>
        )}
      </td>
      <td data-label={label('status')}>
        {row.status === null ? null : row.status === 'start' ? (
          <Badge tone="ok">{t('admin.userTable.on')}</Badge>
        ) : (
          <Badge>{t('admin.userTable.off')}</Badge>
        )}
      </td>
      {actions && <td data-label={actions.label}>{actions.cell(row)}</td>}
    </tr>
  );
}) as <T extends TableRow>(props: RowProps<T>) => ReactNode;

function columnLabel(t: TFunction, key: (typeof COLUMNS)[number][1], notificationColumns: boolean) {
  return notificationColumns && (key === 'name' || key === 'phone')
    ? t(`admin.notifications.columns.${key}`)
    : t(`admin.userTable.columns.${key}`);
}

/** Yes in green, No in grey: a state read at a glance down a column. */
function yesNo(t: (key: string) => string, value: boolean): ReactNode {
  return value ? <Badge tone="ok">{t('common.yes')}</Badge> : <Badge>{t('common.no')}</Badge>;
}

function SelectAllBox({ selection, label }: { selection: TableSelection; label: string }) {
  return (
    <Checkbox
      checked={selection.state === 'all'}
      indeterminate={selection.state === 'some'}
      onChange={() => selection.onToggleAll()}
      aria-label={label}
    />
  );
}

function HeaderCell({
  label,
  column,
  sort,
}: {
  label: string;
  column: SortColumn;
  sort: TableSort | undefined;
}) {
  if (!sort) return <th scope="col">{label}</th>;
  const active = sort.column === column;
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort}>
      <button type="button" className="sort-button" onClick={() => sort.onSort(column)}>
        {label}
        <span aria-hidden="true">{active ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}
