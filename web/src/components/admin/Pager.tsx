// Paging under a table: previous and next, 'Page N' and rows per page (20 to 100).
import { ROWS_PER_PAGE } from '@blockcatch/sdk';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function Pager({
  page,
  pageCount,
  rowsPerPage,
  onPage,
  onRowsPerPage,
}: {
  page: number;
  pageCount: number;
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
      <span aria-live="polite">{t('admin.userTable.page', { page })}</span>
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
