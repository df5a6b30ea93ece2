// Paging under a table: previous and next, 'Page N' with how many pages and rows there are
// ("Page 1 of 21 · 403 users"), and rows per page (20 to 100).
import { ROWS_PER_PAGE } from '@blockcatch/sdk';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** What the rows are, for the count beside the page. */
export type PagerUnit = 'users' | 'recipients' | 'invitations' | 'leads' | 'rows';

export function Pager({
  page,
  pageCount,
  total,
  unit = 'rows',
  rowsPerPage,
  onPage,
  onRowsPerPage,
}: {
  page: number;
  pageCount: number;
  /** Rows over all pages. */
  total: number;
  unit?: PagerUnit;
  rowsPerPage: number;
  onPage(page: number): void;
  onRowsPerPage(rows: number): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="pager">
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t('admin.userTable.previous')}
      </button>
      <span aria-live="polite" data-testid="pager-position">
        {t('admin.userTable.pageOf', {
          page,
          pageCount,
          rows: t(`admin.userTable.pagerUnits.${unit}`, { count: total }),
        })}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pageCount}>
        {t('admin.userTable.next')}
      </button>
      <label htmlFor={id}>{t('admin.userTable.rowsPerPage')}</label>
      <select id={id} value={rowsPerPage} onChange={(e) => onRowsPerPage(Number(e.target.value))}>
        {ROWS_PER_PAGE.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}
