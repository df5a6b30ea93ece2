// Page and rows per page over a list: a new page size starts again at page 1.
import { DEFAULT_ROWS_PER_PAGE, paginate } from '@blockcatch/sdk';
import { useCallback, useMemo, useState } from 'react';

export function usePaging<T>(rows: readonly T[]) {
  const [pageNumber, setPageNumber] = useState(1);
  const [rowsPerPage, setRowsPerPageState] = useState<number>(DEFAULT_ROWS_PER_PAGE);
  const page = useMemo(
    () => paginate(rows, pageNumber, rowsPerPage),
    [rows, pageNumber, rowsPerPage],
  );
  const setRowsPerPage = useCallback((size: number) => {
    setRowsPerPageState(size);
    setPageNumber(1);
  }, []);
  const toFirstPage = useCallback(() => setPageNumber(1), []);

  return {
    page,
    rowsPerPage,
    setPageNumber,
    setRowsPerPage,
    toFirstPage,
    /** The props of <Pager>. */
    pager: {
      page: page.page,
      pageCount: page.pageCount,
      total: page.total,
      rowsPerPage,
      onPage: setPageNumber,
      onRowsPerPage: setRowsPerPage,
    },
  };
}
