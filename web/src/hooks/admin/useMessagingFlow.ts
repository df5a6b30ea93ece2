// The flow both admin messaging screens share: filters and a message, a review
// built from them, the send, and on success filters, message and review cleared back to the form.
import { useCallback, useRef, useState } from 'react';
import { EMPTY_DRAFT, type MessageDraft } from '../../components/admin/MessageComposer.js';
import type { HasPhone, Selection } from './selection.js';
import { buildSendRequest, type ComposedMessage } from './send-request.js';
import { type SendOutcome, useSendMessage } from './useSendMessage.js';

export interface Review<R> {
  /** New per review: it keys the review table and the send's idempotency key. */
  id: number;
  rows: R[];
  composed: ComposedMessage;
}

export function useMessagingFlow<F extends object, R extends HasPhone>(noFilters: F) {
  const [filters, setFilters] = useState<F>(noFilters);
  const [draft, setDraft] = useState<MessageDraft>(EMPTY_DRAFT);
  const [review, setReview] = useState<Review<R> | null>(null);
  const [result, setResult] = useState<SendOutcome | null>(null);
  const reviews = useRef(0);
  const { send, sending } = useSendMessage(review?.id ?? 0);

  const setFilter = useCallback(
    (patch: Partial<F>) => setFilters((current) => ({ ...current, ...patch })),
    [],
  );
  const startReview = useCallback((rows: R[], composed: ComposedMessage) => {
    setResult(null);
    reviews.current += 1;
    setReview({ id: reviews.current, rows, composed });
  }, []);
  const cancelReview = useCallback(() => setReview(null), []);
  const sendSelected = async (selected: Selection) => {
    if (!review) return;
    const outcome = await send(buildSendRequest(review.composed, review.rows, selected));
    if (!outcome) return;
    setResult(outcome);
    if (outcome.ok) {
      setFilters(noFilters);
      setDraft(EMPTY_DRAFT);
      setReview(null);
    }
  };

  return {
    filters,
    setFilter,
    draft,
    setDraft,
    review,
    startReview,
    cancelReview,
    sendSelected,
    sending,
    result,
  };
}
