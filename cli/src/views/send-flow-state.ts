// The interactive send's screen state and the intents that change it: a pure reducer, so the Ink
// views stay functions of props and every transition can be tested without a terminal.
import {
  createRecipientSearch,
  paginate,
  type RecipientSearch,
  ROWS_PER_PAGE,
  type SearchableRow,
  type SkipReason,
} from '@blockcatch/sdk';

export type Step = 'summary' | 'review' | 'confirm' | 'sending' | 'done' | 'cancelled' | 'failed';

/** Why the gateway would not send to a number. */
export type BlockedReason = SkipReason;

export interface ReviewRow extends SearchableRow {
  /** `+1XXXXXXXXXX`: what is sent to and what selection is keyed by. */
  readonly phone: string;
  readonly cells: Readonly<Record<string, string>>;
  /** Set when the number cannot be sent to: shown struck through, never selected. */
  readonly blocked?: BlockedReason | undefined;
}

/** Recipients handed to the gateway so far, of all selected. */
export interface Progress {
  done: number;
  total: number;
}

export interface FlowState {
  step: Step;
  focus: 'search' | 'table';
  search: string;
  page: number;
  rowsPerPage: number;
  /** Rows the terminal has room for: a page never shows more, whatever rowsPerPage says. */
  maxRows: number;
  /** A word for the person after an intent that did nothing, e.g. Send with nobody selected. */
  notice: 'nothingSelected' | null;
  /** Index of the highlighted row on the current page. */
  cursor: number;
  /** Everyone starts selected, so what is kept is who was taken out. */
  deselected: ReadonlySet<string>;
  progress: Progress | null;
  /** The result line, or the failure message. */
  outcome: string | null;
}

export type Intent =
  | { type: 'review' }
  | { type: 'cancel' }
  | { type: 'type'; text: string }
  | { type: 'erase' }
  | { type: 'focus'; focus: FlowState['focus'] }
  | { type: 'move'; by: number }
  | { type: 'toggle' }
  | { type: 'toggleAll' }
  | { type: 'page'; by: number }
  | { type: 'rowsPerPage' }
  | { type: 'fit'; maxRows: number }
  | { type: 'send' }
  | { type: 'back' }
  | { type: 'confirm' }
  | { type: 'progress'; progress: Progress }
  | { type: 'done'; outcome: string }
  | { type: 'failed'; outcome: string };

export function initialState(): FlowState {
  return {
    step: 'summary',
    focus: 'table',
    search: '',
    page: 1,
    rowsPerPage: ROWS_PER_PAGE[0],
    maxRows: Number.POSITIVE_INFINITY,
    notice: null,
    cursor: 0,
    deselected: new Set(),
    progress: null,
    outcome: null,
  };
}

/** Rows on one page: the chosen rows per page, or fewer when the terminal is short. */
export function pageSize(state: FlowState): number {
  return Math.max(1, Math.min(state.rowsPerPage, state.maxRows));
}

export function visibleRows(rows: readonly ReviewRow[], state: FlowState) {
  return paginate(searchOf(rows).search(state.search), state.page, pageSize(state));
}

// The review's rows never change while it is open: index them once, and let each keystroke
// narrow the previous answer.
const searches = new WeakMap<readonly ReviewRow[], RecipientSearch<ReviewRow>>();

function searchOf(rows: readonly ReviewRow[]): RecipientSearch<ReviewRow> {
  let search = searches.get(rows);
  if (!search) {
    search = createRecipientSearch(rows);
    searches.set(rows, search);
  }
  return search;
}

export function selectedPhones(rows: readonly ReviewRow[], state: FlowState): string[] {
  return rows.filter((r) => !r.blocked && !state.deselected.has(r.phone)).map((r) => r.phone);
}

export function reduce(rows: readonly ReviewRow[], state: FlowState, intent: Intent): FlowState {
  const next = apply(rows, state, intent);
  // A notice answers the key just pressed; the next key press clears it.
  if (intent.type === 'send' || intent.type === 'fit' || next.notice === null) return next;
  return { ...next, notice: null };
}

function apply(rows: readonly ReviewRow[], state: FlowState, intent: Intent): FlowState {
  switch (intent.type) {
    case 'review':
      return { ...state, step: 'review' };
    case 'cancel':
      return { ...state, step: 'cancelled' };
    case 'type':
      return { ...state, search: state.search + intent.text, page: 1, cursor: 0 };
    case 'erase':
      return { ...state, search: state.search.slice(0, -1), page: 1, cursor: 0 };
    case 'focus':
      return { ...state, focus: intent.focus };
    case 'move': {
      const count = visibleRows(rows, state).items.length;
      return { ...state, cursor: clamp(state.cursor + intent.by, 0, Math.max(0, count - 1)) };
    }
    case 'toggle': {
      const row = visibleRows(rows, state).items[state.cursor];
      if (!row || row.blocked) return state;
      const deselected = new Set(state.deselected);
      if (deselected.has(row.phone)) deselected.delete(row.phone);
      else deselected.add(row.phone);
      return { ...state, deselected };
    }
    case 'toggleAll': {
      // Acts on what the search shows, as the table's header checkbox does.
      const shown = searchOf(rows)
        .search(state.search)
        .filter((r) => !r.blocked);
      const allSelected = shown.every((r) => !state.deselected.has(r.phone));
      const deselected = new Set(state.deselected);
      for (const r of shown) {
        if (allSelected) deselected.add(r.phone);
        else deselected.delete(r.phone);
      }
      return { ...state, deselected };
    }
    case 'page': {
      const { pageCount } = visibleRows(rows, state);
      return { ...state, page: clamp(state.page + intent.by, 1, pageCount), cursor: 0 };
    }
    case 'rowsPerPage': {
      const index = ROWS_PER_PAGE.indexOf(state.rowsPerPage as (typeof ROWS_PER_PAGE)[number]);
      const next = ROWS_PER_PAGE[(index + 1) % ROWS_PER_PAGE.length]!;
      return { ...state, rowsPerPage: next, page: 1, cursor: 0 };
    }
    case 'fit': {
      if (intent.maxRows === state.maxRows) return state;
      // Keep the first row shown on screen after the page size changes.
      const first = (state.page - 1) * pageSize(state);
      const fitted = { ...state, maxRows: intent.maxRows, cursor: 0 };
      return { ...fitted, page: Math.floor(first / pageSize(fitted)) + 1 };
    }
    case 'send':
      return selectedPhones(rows, state).length > 0
        ? { ...state, step: 'confirm' }
        : { ...state, notice: 'nothingSelected' };
    case 'back':
      return { ...state, step: 'review' };
    case 'confirm':
      return { ...state, step: 'sending' };
    case 'progress':
      return { ...state, progress: intent.progress };
    case 'done':
      return { ...state, step: 'done', outcome: intent.outcome };
    case 'failed':
      return { ...state, step: 'failed', outcome: intent.outcome };
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}
