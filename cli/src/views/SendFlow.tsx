// The interactive send from filter summary to result. The screen state lives in a pure reducer
// (send-flow-state.ts); the send itself is the caller's, reached through `onSend`. The review fits
// the terminal: columns share its width (headers whole when there is room) and a page holds no
// more rows than its height allows, re-fitted when the terminal is resized. Keys are read by one
// handler bound for the flow's whole life and turned into intents by the reducer (flow-keys.ts), so
// no key is lost or misread between a step's drawing and its handler being bound.
import { type Key, useApp, useInput, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { Translate } from '../i18n.js';
import { fitColumns, keptColumns } from '../output/table.js';
import { Confirm } from './Confirm.js';
import { FilterSummary } from './FilterSummary.js';
import { type Answers, isInterrupt, type KeyPress, keyIntent, splitKeys } from './flow-keys.js';
import { Review, type ReviewColumn, ROW_PREFIX, reviewChrome } from './Review.js';
import { SendProgress, SendResult } from './SendProgress.js';
import {
  type FlowState,
  type Intent,
  initialState,
  type Progress,
  type ReviewRow,
  reduce,
  selectedPhones,
  visibleRows,
} from './send-flow-state.js';

export interface TerminalSize {
  columns: number;
  rows: number;
}

export interface SendFlowProps {
  t: Translate;
  rows: readonly ReviewRow[];
  columns: readonly ReviewColumn[];
  /** Column indexes in the order they are left out when their headers do not fit the terminal. */
  dropOrder?: readonly number[];
  /** Column indexes that say who a row is (name, phone): the last to shrink. */
  lastToShrink?: readonly number[];
  filters: ReadonlyArray<readonly [string, string]>;
  message: readonly string[];
  /** The terminal's size; by default stdout's, followed as it is resized. */
  size?: TerminalSize;
  /**
   * The message as `phone` will read it (templates filled in by the gateway), or null when it
   * cannot be told; asked again whenever the first selected recipient changes.
   */
  previewFor?: (phone: string) => Promise<string | null>;
  /** Sends to `phones`, reporting progress; resolves with the result line or rejects with one. */
  onSend: (phones: string[], report: (progress: Progress) => void) => Promise<string>;
  /** Called once the flow ends: sent, cancelled or failed. */
  onFinish: (step: FlowState['step']) => void;
}

/** stdout's size, updated on every resize; undefined dimensions mean "not a terminal". */
function useTerminalSize(given: TerminalSize | undefined): Partial<TerminalSize> {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns, rows: stdout.rows });
  const [live, setLive] = useState<Partial<TerminalSize>>(read);
  useEffect(() => {
    if (given) return;
    const onResize = () => setLive({ columns: stdout.columns, rows: stdout.rows });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [given, stdout]);
  return given ?? live;
}

export function SendFlow({
  t,
  rows,
  columns,
  dropOrder = [],
  lastToShrink = [],
  filters,
  message,
  size,
  previewFor,
  onSend,
  onFinish,
}: SendFlowProps) {
  // The run's language says which answers mean yes and no at the confirmation.
  const answers = useMemo<Answers>(
    () => ({
      yes: new Set(t('cli.review.yesAnswers').split(',')),
      no: new Set(t('cli.review.noAnswers').split(',')),
    }),
    [t],
  );
  const [state, dispatch] = useReducer(
    (s: FlowState, action: Intent | { type: 'key'; key: KeyPress }) => {
      if (action.type !== 'key') return reduce(rows, s, action);
      const intent = keyIntent(s, action.key, answers);
      return intent ? reduce(rows, s, intent) : s;
    },
    undefined,
    initialState,
  );
  // One handler for the flow's life: the state a key lands in is the reducer's, never a render's.
  // Several keys read at once come as one string, read key by key. Ctrl-C, alone or among them,
  // ends the flow here (the caller renders with Ink's own Ctrl-C handling off).
  const { exit } = useApp();
  const onKey = useCallback(
    (input: string, key: Key) => {
      for (const press of input.length > 1 ? splitKeys(input) : [{ ...key, input }]) {
        if (isInterrupt(press)) {
          exit();
          return;
        }
        dispatch({ type: 'key', key: press });
      }
    },
    [exit],
  );
  const reading = state.step === 'summary' || state.step === 'review' || state.step === 'confirm';
  useInput(onKey, { isActive: reading });
  const terminal = useTerminalSize(size);

  const maxRows = terminal.rows
    ? Math.max(3, terminal.rows - reviewChrome(message.length))
    : Number.POSITIVE_INFINITY;
  useEffect(() => dispatch({ type: 'fit', maxRows }), [maxRows]);

  // Each column's widest cell over every row, measured once.
  const natural = useMemo(
    () =>
      columns.map((c) =>
        rows.reduce(
          (max, row) => Math.max(max, [...(row.cells[c.key] ?? '')].length),
          c.title.length,
        ),
      ),
    [rows, columns],
  );
  // A pseudo-terminal nobody sized says 0 by 0: read as unknown.
  const width = terminal.columns || 80;
  // As the list commands do: whole headers, whole names and phones, the least telling columns left
  // out first; then every kept column shares the width, name and phone the last to give.
  const { shown, widths } = useMemo(() => {
    const headers = columns.map((c) => [...c.title].length);
    const kept = keptColumns(
      natural,
      headers,
      { width, dropOrder, lastToShrink },
      { gap: 1, edge: ROW_PREFIX - 1 },
    );
    const fitted = fitColumns(
      kept.map((i) => natural[i]!),
      kept.map((i) => headers[i]!),
      width - ROW_PREFIX - (kept.length - 1),
      lastToShrink.flatMap((i) => (kept.includes(i) ? [kept.indexOf(i)] : [])),
    );
    return { shown: kept.map((i) => columns[i]!), widths: fitted };
  }, [natural, columns, width, dropOrder, lastToShrink]);

  // The preview follows the first selected recipient; an answer for an earlier one is dropped.
  const first = rows.find((r) => !r.blocked && !state.deselected.has(r.phone)) ?? null;
  const [preview, setPreview] = useState<{ phone: string; name: string; text: string } | null>(
    null,
  );
  useEffect(() => {
    if (!previewFor || !first) return;
    let current = true;
    previewFor(first.phone).then(
      (text) => {
        if (current && text !== null) setPreview({ phone: first.phone, name: first.name, text });
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [previewFor, first]);

  // The send starts once, on entering 'sending'; progress updates re-run this effect harmlessly.
  const started = useRef(false);
  useEffect(() => {
    if (state.step !== 'sending' || started.current) return;
    started.current = true;
    onSend(selectedPhones(rows, state), (progress) =>
      dispatch({ type: 'progress', progress }),
    ).then(
      (outcome) => dispatch({ type: 'done', outcome }),
      (error: unknown) =>
        dispatch({
          type: 'failed',
          outcome: error instanceof Error ? error.message : String(error),
        }),
    );
  }, [state, rows, onSend]);

  useEffect(() => {
    if (state.step === 'done' || state.step === 'cancelled' || state.step === 'failed') {
      onFinish(state.step);
    }
  }, [state.step, onFinish]);

  switch (state.step) {
    case 'summary':
      return <FilterSummary t={t} filters={filters} message={message} count={rows.length} />;
    case 'review':
      return (
        <Review
          t={t}
          page={visibleRows(rows, state)}
          columns={shown}
          hidden={columns.length - shown.length}
          widths={widths}
          state={state}
          total={rows.length}
          selected={selectedPhones(rows, state).length}
          message={message}
          preview={previewFor ? (preview?.phone === first?.phone ? preview : null) : undefined}
        />
      );
    case 'confirm':
      return <Confirm t={t} count={selectedPhones(rows, state).length} />;
    case 'sending':
      return <SendProgress t={t} progress={state.progress} />;
    case 'cancelled':
      return <SendResult outcome={t('cli.review.cancelled')} failed={false} />;
    default:
      return <SendResult outcome={state.outcome ?? ''} failed={state.step === 'failed'} />;
  }
}
