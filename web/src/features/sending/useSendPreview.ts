// The review's preview from the gateway (`client.sends.preview`): the message as the first selected
// recipient will read it (template variables filled), who would be skipped and why, and how many
// would wait for the end of quiet hours. Asked again when the selection settles; the skips it
// reports are marked in the review table.
import type { SendPreviewRequest } from '@blockcatch/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import {
  type Marks,
  marksFromSkipped,
  numbersKey,
  previewNumbers,
} from '../../lib/admin/review-marks.js';
import type { HasPhone, Selection } from '../../lib/admin/selection.js';
import { gateway } from '../../sdk.js';
import { type ComposedMessage, toMsgTemplate } from './send-request.js';

/** Clicking through checkboxes asks once, after the clicks stop. */
const SETTLE_MS = 400;

export function useSendPreview({
  reviewId,
  rows,
  composed,
  sendAt,
  localTime = false,
  selected,
  marks,
  onMarks,
}: {
  reviewId: number;
  rows: readonly HasPhone[];
  composed: ComposedMessage;
  sendAt: string | undefined;
  localTime?: boolean;
  selected: Selection;
  marks: Marks;
  onMarks(marks: Marks): void;
}) {
  const settled = useSettled(selected, SETTLE_MS);
  const numbers = useMemo(() => previewNumbers(rows, settled, marks), [rows, settled, marks]);
  const key = useMemo(() => numbersKey(numbers), [numbers]);
  const query = useQuery({
    queryKey: ['admin', 'sendPreview', reviewId, key],
    queryFn: () => {
      const request: SendPreviewRequest =
        composed.channel === 'sms'
          ? { channel: 'sms', message: composed.message, numbers }
          : { channel: 'whatsapp', msgTemplate: toMsgTemplate(composed.template), numbers };
      return gateway.sends.preview(
        sendAt === undefined
          ? request
          : { ...request, sendAt, ...(localTime ? { localTime } : {}) },
      );
    },
    enabled: numbers.length > 0,
    // The previous answer stays on screen while the next one is asked for.
    placeholderData: keepPreviousData,
    // A refusal (a template variable with no value) is an answer to show, not a hiccup.
    retry: false,
    staleTime: 60_000,
  });
  const skipped = query.data?.skipped;
  useEffect(() => {
    if (skipped && skipped.length > 0) onMarks(marksFromSkipped(rows, skipped));
  }, [skipped, rows, onMarks]);
  return query;
}

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
