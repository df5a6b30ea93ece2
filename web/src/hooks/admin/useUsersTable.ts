// The users screen's list state: search, sort (selectedSorting + sortingDirection) and paging,
// each step memoised so the table redraws only what changed.
import { DEFAULT_ROWS_PER_PAGE, paginate, searchRecipients, type UserRow } from '@blockcatch/sdk';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { type SortColumn, type SortDirection, sortUsers } from './user-sorting.js';

export function useUsersTable(rows: readonly UserRow[]) {
  const [searchText, setSearchText] = useState('');
  const [selectedSorting, setSelectedSorting] = useState<SortColumn | undefined>('name');
  const [sortingDirection, setSortingDirection] = useState<SortDirection>('asc');
  const [pageNumber, setPageNumber] = useState(1);
  const [rowsPerPage, setRowsPerPageState] = useState<number>(DEFAULT_ROWS_PER_PAGE);
  const query = useDeferredValue(searchText);
  const searched = useMemo(() => searchRecipients(rows, query), [rows, query]);
  const sorted = useMemo(
    () => sortUsers(searched, selectedSorting, sortingDirection),
    [searched, selectedSorting, sortingDirection],
  );
  const page = useMemo(
    () => paginate(sorted, pageNumber, rowsPerPage),
    [sorted, pageNumber, rowsPerPage],
  );

  const sortBy = useCallback(
    (column: SortColumn) => {
      // A second click on the sorted column turns it around.
      if (column === selectedSorting) {
        setSortingDirection((d) => (d === 'asc' ? 'desc' : 'asc'));
      } else {
        setSelectedSorting(column);
        setSortingDirection('asc');
      }
      setPageNumber(1);
    },
    [selectedSorting],
  );
  const search = useCallback((text: string) => {
    setSearchText(text);
    setPageNumber(1);
  }, []);
  const setRowsPerPage = useCallback((size: number) => {
    setRowsPerPageState(size);
    setPageNumber(1);
  }, []);

  return {
    searchText,
    search,
    sort: { column: selectedSorting, direction: sortingDirection, onSort: sortBy },
    page,
    setPageNumber,
    rowsPerPage,
    setRowsPerPage,
  };
}
