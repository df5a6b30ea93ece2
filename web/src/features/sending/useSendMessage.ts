// Sends a review's message through the SDK. One idempotency key per review: a double click, or a
// retry after a lost answer, reaches the gateway with the same key and is never sent twice.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/ui/Toast.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { adminQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { sendOutcomeText } from './send-outcome.js';
import type { SendRequest } from './send-request.js';

export type SendOutcome = { ok: true; text: string } | { ok: false; text: string };

/**
 * `reviewId` changes whenever a new review starts; the key stays for that review's whole life,
 * failures included, so a retried send after a timeout is recognised by the gateway.
 */
export function useSendMessage(reviewId: number) {
  const { t } = useTranslation();
  const toast = useToast();
  const fmt = useFormat();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const inFlight = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key per review
  const idempotencyKey = useMemo(() => globalThis.crypto.randomUUID(), [reviewId]);

  const send = useCallback(
    async (request: SendRequest): Promise<SendOutcome | null> => {
      if (inFlight.current) return null;
      inFlight.current = true;
      setSending(true);
      const progress = toast.show('info', t('admin.sendSms.sending'));
      try {
        const options = { idempotencyKey };
        const result =
          request.channel === 'sms'
            ? await gateway.sendSms(request.payload, options)
            : await gateway.sendWhatsapp(request.payload, options);
        // Who was messaged, and when, is part of the tables the screens show; the new job joins
        // the recent sends, which follow it to delivered.
        void queryClient.invalidateQueries({ queryKey: adminQueries.all });
        const text = sendOutcomeText(t, fmt.dateTime, result, request.payload.numbers.length);
        toast.dismiss(progress);
        toast.show('success', text);
        return { ok: true, text };
      } catch (error) {
        const text = errorMessage(t, error, t('admin.sendSms.sendFailed'));
        toast.dismiss(progress);
        toast.show('error', text);
        return { ok: false, text };
      } finally {
        inFlight.current = false;
        setSending(false);
      }
    },
    [fmt, idempotencyKey, queryClient, t, toast],
  );

  return { send, sending };
}
