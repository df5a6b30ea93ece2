// The users screen's list state: search, sort (selectedSorting + sortingDirection) and paging,
// each step memoised so the table redraws only what changed.
import { createRecipientSearch, type UserRow } from '@blockcatch/sdk';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { usePaging } from '../../hooks/admin/usePaging.js';
import { type SortColumn, type SortDirection, sortUsers } from '../../lib/admin/user-sorting.js';

export function useUsersTable(rows: readonly UserRow[]) {
  const [searchText, setSearchText] = useState('');
  const [selectedSorting, setSelectedSorting] = useState<SortColumn | undefined>('name');
  const [sortingDirection, setSortingDirection] = useState<SortDirection>('asc');
  const query = useDeferredValue(searchText);
  // Indexed once per loaded table; each keystroke narrows the previous answer.
  const index = useMemo(() => createRecipientSearch(rows), [rows]);
  const searched = useMemo(() => index.search(query), [index, query]);
  const sorted = useMemo(
    () => sortUsers(searched, selectedSorting, sortingDirection),
    [searched, selectedSorting, sortingDirection],
  );
  const paging = usePaging(sorted);
  const { toFirstPage } = paging;

  const sortBy = useCallback(
    (column: SortColumn) => {
      // A second click on the sorted column turns it around.
      if (column === selectedSorting) {
        setSortingDirection((d) => (d === 'asc' ? 'desc' : 'asc'));
      } else {
        setSelectedSorting(column);
        setSortingDirection('asc');
      }
      toFirstPage();
    },
    [selectedSorting, toFirstPage],
  );
  const search = useCallback(
    (text: string) => {
      setSearchText(text);
      toFirstPage();
    },
    [toFirstPage],
  );

  return {
    searchText,
    search,
    sort: { column: selectedSorting, direction: sortingDirection, onSort: sortBy },
    page: paging.page,
    setPageNumber: paging.setPageNumber,
    rowsPerPage: paging.rowsPerPage,
    setRowsPerPage: paging.setRowsPerPage,
  };
}
