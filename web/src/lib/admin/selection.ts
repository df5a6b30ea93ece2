// The review tables' selection: a set of phone numbers, so 100,000 rows cost one Set, not a
// `_selected` flag copied into every row. Every operation returns a new set (React state).

export interface HasPhone {
  readonly phoneNumber: string;
}

export type Selection = ReadonlySet<string>;

/** Every row selected: how a review starts. */
export function selectEvery(rows: readonly HasPhone[]): Set<string> {
  const selected = new Set<string>();
  for (const row of rows) selected.add(row.phoneNumber);
  return selected;
}

/** The selection with `phone` flipped. */
export function toggleSelected(selected: Selection, phone: string): Set<string> {
  const next = new Set(selected);
  if (next.has(phone)) next.delete(phone);
  else next.add(phone);
  return next;
}

/** 'Select all' on a (searched) list: its rows join the selection; rows outside it keep theirs. */
export function selectRows(selected: Selection, rows: readonly HasPhone[]): Set<string> {
  const next = new Set(selected);
  for (const row of rows) next.add(row.phoneNumber);
  return next;
}

/** 'Select none' on a (searched) list: its rows leave the selection; rows outside it keep theirs. */
export function deselectRows(selected: Selection, rows: readonly HasPhone[]): Set<string> {
  const next = new Set(selected);
  for (const row of rows) next.delete(row.phoneNumber);
  return next;
}

/** How many of `rows` are selected, and whether that is all, some or none of them. */
export function selectionState(
  selected: Selection,
  rows: readonly HasPhone[],
): { count: number; state: 'all' | 'some' | 'none' } {
  let count = 0;
  for (const row of rows) if (selected.has(row.phoneNumber)) count++;
  const state =
    count === 0 ? 'none' : count === rows.length ? 'all' : ('some' as 'all' | 'some' | 'none');
  return { count, state };
}

/** The selected rows, in list order. */
export function selectedRows<T extends HasPhone>(rows: readonly T[], selected: Selection): T[] {
  return rows.filter((row) => selected.has(row.phoneNumber));
}
