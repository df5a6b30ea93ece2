// A review table's state: search, page, rows per page and the selection (a Set of phones), with
// the searched list and the page memoised so typing in a 100,000-row review stays responsive.
import {
  DEFAULT_ROWS_PER_PAGE,
  paginate,
  type SearchableRow,
  searchRecipients,
} from '@blockcatch/sdk';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import {
  deselectRows,
  type HasPhone,
  selectEvery,
  selectionState,
  selectRows,
  toggleSelected,
} from './selection.js';

export function useReviewTable<T extends HasPhone & SearchableRow>(rows: readonly T[]) {
  const [searchText, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [rowsPerPage, setRowsPerPageState] = useState<number>(DEFAULT_ROWS_PER_PAGE);
  // Every recipient starts selected (SPEC section 4); the review is remounted per list.
  const [selected, setSelected] = useState<Set<string>>(() => selectEvery(rows));
  // Searching 100,000 rows takes a few milliseconds; deferring keeps each keystroke instant.
  const query = useDeferredValue(searchText);
  const searched = useMemo(() => searchRecipients(rows, query), [rows, query]);
  const shown = useMemo(() => paginate(searched, page, rowsPerPage), [searched, page, rowsPerPage]);
  const onSearched = useMemo(() => selectionState(selected, searched), [selected, searched]);

  const toggle = useCallback((phone: string) => setSelected((s) => toggleSelected(s, phone)), []);
  // 'Select all' / 'select none' act on the searched list, not only the page in view.
  const toggleAll = useCallback(
    () =>
      setSelected((s) =>
        selectionState(s, searched).state === 'all'
          ? deselectRows(s, searched)
          : selectRows(s, searched),
      ),
    [searched],
  );
  const search = useCallback((text: string) => {
    setSearchText(text);
    setPage(1);
  }, []);
  const setRowsPerPage = useCallback((size: number) => {
    setRowsPerPageState(size);
    setPage(1);
  }, []);

  return {
    searchText,
    search,
    page: shown,
    setPage,
    rowsPerPage,
    setRowsPerPage,
    selected,
    selectedCount: selected.size,
    selection: { selected, state: onSearched.state, onToggle: toggle, onToggleAll: toggleAll },
  };
}
