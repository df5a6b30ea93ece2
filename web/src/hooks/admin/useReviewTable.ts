// A review table's state: search, page, rows per page and the selection (a Set of phones), with
// the searched list and the page memoised so typing in a 100,000-row review stays responsive.
import { createRecipientSearch, type SearchableRow } from '@blockcatch/sdk';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import {
  deselectRows,
  type HasPhone,
  selectEvery,
  selectionState,
  selectRows,
  toggleSelected,
} from './selection.js';
import { usePaging } from './usePaging.js';

export function useReviewTable<T extends HasPhone & SearchableRow>(rows: readonly T[]) {
  const [searchText, setSearchText] = useState('');
  // Every recipient starts selected; the review is remounted per list.
  const [selected, setSelected] = useState<Set<string>>(() => selectEvery(rows));
  // Searching 100,000 rows takes a few milliseconds; deferring keeps each keystroke instant.
  const query = useDeferredValue(searchText);
  // Indexed once per loaded table; each keystroke narrows the previous answer.
  const index = useMemo(() => createRecipientSearch(rows), [rows]);
  const searched = useMemo(() => index.search(query), [index, query]);
  const paging = usePaging(searched);
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
  const { toFirstPage } = paging;
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
    page: paging.page,
    setPage: paging.setPageNumber,
    rowsPerPage: paging.rowsPerPage,
    setRowsPerPage: paging.setRowsPerPage,
    selected,
    selectedCount: selected.size,
    selection: { selected, state: onSearched.state, onToggle: toggle, onToggleAll: toggleAll },
  };
}
