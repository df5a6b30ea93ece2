// A review table's state: search, page, rows per page, the selection (a Set of phones) and the
// rows that cannot be sent to (marked: never selectable), with the searched list and the page
// memoised so typing in a 100,000-row review stays responsive.
import { createRecipientSearch, type SearchableRow } from '@blockcatch/sdk';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { usePaging } from '../../hooks/admin/usePaging.js';
import {
  localMarks,
  type Marks,
  selectableRows,
  withoutMarked,
} from '../../lib/admin/review-marks.js';
import {
  deselectRows,
  type HasPhone,
  type Selection,
  selectEvery,
  selectionState,
  selectRows,
  toggleSelected,
} from '../../lib/admin/selection.js';

export function useReviewTable<T extends HasPhone & SearchableRow>(rows: readonly T[]) {
  const [searchText, setSearchText] = useState('');
  // Numbers that are not US numbers are known at once; the gateway's skips arrive with its preview.
  const local = useMemo(() => localMarks(rows), [rows]);
  const [reported, setReported] = useState<Marks>(() => new Map());
  const marks = useMemo<Marks>(
    () => (reported.size === 0 ? local : new Map([...local, ...reported])),
    [local, reported],
  );
  const marksRef = useRef(marks);
  marksRef.current = marks;
  // Every recipient that can be sent to starts selected; the review is remounted per list.
  const [chosen, setChosen] = useState<Selection>(() => withoutMarked(selectEvery(rows), local));
  const selected = useMemo(() => withoutMarked(chosen, marks), [chosen, marks]);
  // Searching 100,000 rows takes a few milliseconds; deferring keeps each keystroke instant.
  const query = useDeferredValue(searchText);
  // Indexed once per loaded table; each keystroke narrows the previous answer.
  const index = useMemo(() => createRecipientSearch(rows), [rows]);
  const searched = useMemo(() => index.search(query), [index, query]);
  const selectable = useMemo(() => selectableRows(searched, marks), [searched, marks]);
  const paging = usePaging(searched);
  const onSearched = useMemo(() => selectionState(selected, selectable), [selected, selectable]);

  const toggle = useCallback((phone: string) => {
    if (marksRef.current.has(phone)) return;
    setChosen((s) => toggleSelected(s, phone));
  }, []);
  // 'Select all' / 'select none' act on the searched list, not only the page in view, and never
  // on a marked row.
  const toggleAll = useCallback(
    () =>
      setChosen((s) =>
        selectionState(withoutMarked(s, marksRef.current), selectable).state === 'all'
          ? deselectRows(s, selectable)
          : selectRows(s, selectable),
      ),
    [selectable],
  );
  /** Marks the rows the gateway said it would skip; they leave the selection. */
  const addMarks = useCallback((more: Marks) => {
    setReported((current) => {
      let added = false;
      for (const [phone, reason] of more) if (current.get(phone) !== reason) added = true;
      return added ? new Map([...current, ...more]) : current;
    });
  }, []);
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
    marks,
    addMarks,
    selection: {
      selected,
      marks,
      state: onSearched.state,
      onToggle: toggle,
      onToggleAll: toggleAll,
    },
  };
}
