// The interactive send from filter summary to result. The screen state lives in a pure reducer
// (send-flow-state.ts); the send itself is the caller's, reached through `onSend`.
import { useEffect, useReducer, useRef } from 'react';
import type { Translate } from '../i18n.js';
import { Confirm } from './Confirm.js';
import { FilterSummary } from './FilterSummary.js';
import { Review, type ReviewColumn } from './Review.js';
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

export interface SendFlowProps {
  t: Translate;
  rows: readonly ReviewRow[];
  columns: readonly ReviewColumn[];
  filters: ReadonlyArray<readonly [string, string]>;
  message: readonly string[];
  /** Sends to `phones`, reporting progress; resolves with the result line or rejects with one. */
  onSend: (phones: string[], report: (progress: Progress) => void) => Promise<string>;
  /** Called once the flow ends: sent, cancelled or failed. */
  onFinish: (step: FlowState['step']) => void;
}

export function SendFlow({ t, rows, columns, filters, message, onSend, onFinish }: SendFlowProps) {
  const [state, dispatch] = useReducer(
    (s: FlowState, intent: Intent) => reduce(rows, s, intent),
    undefined,
    initialState,
  );

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
      return (
        <FilterSummary
          t={t}
          filters={filters}
          message={message}
          count={rows.length}
          onIntent={dispatch}
        />
      );
    case 'review':
      return (
        <Review
          t={t}
          page={visibleRows(rows, state)}
          columns={columns}
          state={state}
          total={rows.length}
          selected={selectedPhones(rows, state).length}
          message={message}
          onIntent={dispatch}
        />
      );
    case 'confirm':
      return <Confirm t={t} count={selectedPhones(rows, state).length} onIntent={dispatch} />;
    case 'sending':
      return <SendProgress t={t} progress={state.progress} />;
    case 'cancelled':
      return <SendResult outcome={t('cli.review.cancelled')} failed={false} />;
    default:
      return <SendResult outcome={state.outcome ?? ''} failed={state.step === 'failed'} />;
  }
}
