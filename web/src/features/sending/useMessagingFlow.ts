// The flow both admin messaging screens share: filters, a message and when to send it, a review
// built from them, the send, and on success filters, message, time and review cleared back to the form.
import { useCallback, useRef, useState } from 'react';
import type { HasPhone, Selection } from '../../lib/admin/selection.js';
import { EMPTY_DRAFT, type MessageDraft } from './MessageComposer.js';
import { buildSendRequest, type ComposedMessage, sendAtFromLocal } from './send-request.js';
import { type SendOutcome, useSendMessage } from './useSendMessage.js';

export interface Review<R> {
  /** New per review: it keys the review table and the send's idempotency key. */
  id: number;
  rows: R[];
  composed: ComposedMessage;
  /** When the send starts (an ISO instant, or a wall-clock time with `localTime`), or now. */
  sendAt: string | undefined;
  /** True: `sendAt` is the time in each recipient's own zone. */
  localTime: boolean;
}

export function useMessagingFlow<F extends object, R extends HasPhone>(noFilters: F) {
  const [filters, setFilters] = useState<F>(noFilters);
  const [draft, setDraft] = useState<MessageDraft>(EMPTY_DRAFT);
  /** The date-and-time field as typed (`YYYY-MM-DDTHH:mm`); empty sends now. */
  const [sendAtText, setSendAtText] = useState('');
  /** Whether that time is read in each recipient's zone instead of the browser's. */
  const [localTime, setLocalTime] = useState(false);
  const [review, setReview] = useState<Review<R> | null>(null);
  const [result, setResult] = useState<SendOutcome | null>(null);
  const reviews = useRef(0);
  const { send, sending } = useSendMessage(review?.id ?? 0);

  const setFilter = useCallback(
    (patch: Partial<F>) => setFilters((current) => ({ ...current, ...patch })),
    [],
  );
  /** Not ok while the time is in the past: the field says why, and Review waits. */
  const sendAt = sendAtFromLocal(sendAtText, Date.now());
  const startReview = useCallback(
    (rows: R[], composed: ComposedMessage) => {
      const local = localTime && sendAtText !== '';
      const at = sendAtFromLocal(sendAtText, Date.now(), local);
      if (!at.ok) return;
      setResult(null);
      reviews.current += 1;
      setReview({ id: reviews.current, rows, composed, sendAt: at.sendAt, localTime: local });
    },
    [sendAtText, localTime],
  );
  const cancelReview = useCallback(() => setReview(null), []);
  const sendSelected = async (selected: Selection) => {
    if (!review) return;
    const outcome = await send(
      buildSendRequest(review.composed, review.rows, selected, review.sendAt, review.localTime),
    );
    if (!outcome) return;
    setResult(outcome);
    if (outcome.ok) {
      setFilters(noFilters);
      setDraft(EMPTY_DRAFT);
      setSendAtText('');
      setLocalTime(false);
      setReview(null);
    }
  };

  return {
    filters,
    setFilter,
    draft,
    setDraft,
    sendAtText,
    setSendAtText,
    localTime,
    setLocalTime,
    sendAtValid: sendAt.ok,
    review,
    startReview,
    cancelReview,
    sendSelected,
    sending,
    result,
  };
}
