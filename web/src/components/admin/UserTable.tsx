// The admin user table: the same columns for Flex, Spark and invitee rows, optionally with a
// checkbox per row (review) or sortable headers (users). Only the rows in view are drawn, so a
// page of any size, up to a whole 100,000-row list, scrolls smoothly.
import { formatDayShort, localTimeZone, type UserStatus } from '@blockcatch/sdk';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TFunction } from 'i18next';
import { memo, type ReactNode, useRef } from 'react';
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

const ROW_HEIGHT = 41;
/** Rows drawn all at once need no measuring. */
const measureNothing = () => {};

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
  scrollWithPage = false,
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
  /**
   * A page of at most a hundred rows (the Users screen): every row drawn, the table scrolling with
   * the page under its sticky header instead of in a box of its own.
   */
  scrollWithPage?: boolean;
}) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: scrollWithPage ? 0 : rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = scrollWithPage
    ? rows.map((_, index) => ({ index, start: 0, end: 0 }))
    : virtualizer.getVirtualItems();
  const top = !scrollWithPage && items.length > 0 ? items[0]!.start : 0;
  const bottom =
    !scrollWithPage && items.length > 0
      ? virtualizer.getTotalSize() - items[items.length - 1]!.end
      : 0;
  const columnCount = COLUMNS.length + (selection ? 1 : 0) + (actions ? 1 : 0);
  const timeZone = localTimeZone();
  const fmt = useFormat();
  const label = (key: (typeof COLUMNS)[number][1]) => columnLabel(t, key, notificationColumns);

  return (
    // A scrollable region must be reachable by keyboard (WCAG 2.1.1), hence focusable and named.
    <section
      className={scrollWithPage ? 'table-scroll' : 'table-scroll virtual-table'}
      ref={scrollRef}
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
          {top > 0 && <Spacer height={top} columns={columnCount} />}
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <Row
                key={`${row.phoneNumber}-${item.index}`}
                row={row}
                index={item.index}
                checked={selection?.selected.has(row.phoneNumber) ?? false}
                mark={selection?.marks?.get(row.phoneNumber)}
                onToggle={selection?.onToggle}
                measure={scrollWithPage ? measureNothing : virtualizer.measureElement}
                notificationColumns={notificationColumns}
                nameCell={nameCell}
                actions={actions}
                timeZone={timeZone}
                fmt={fmt}
                t={t}
              />
            );
          })}
          {bottom > 0 && <Spacer height={bottom} columns={columnCount} />}
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
  /** Measures the row as it is drawn (once: the function is stable and the row memoised). */
  measure: (element: Element | null) => void;
  notificationColumns: boolean;
  nameCell: ((row: T, name: ReactNode) => ReactNode) | undefined;
  actions: { label: string; cell: (row: T) => ReactNode } | undefined;
  timeZone: string;
  fmt: Formatters;
  t: TFunction;
}

/**
 * One drawn row. Memoised: scrolling re-renders the table a frame at a time, and only the rows
 * coming into view (or whose checkbox changed) are drawn again.
 */
const Row = memo(function Row<T extends TableRow>({
  row,
  index,
  checked,
  mark,
  onToggle,
  measure,
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
      // Rows become cards of varying height on a phone: the virtualizer measures them.
      ref={measure}
      data-index={index}
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

/** Stands in for the rows scrolled out of view, so the scrollbar keeps the whole list's length. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr className="spacer">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
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
