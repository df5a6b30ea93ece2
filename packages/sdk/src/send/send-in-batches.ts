// Splits a large send into batches, each with its own idempotency key, sends a few at a time,
// and journals every acknowledged batch: rerunning an interrupted send with the same key sends
// only the batches that were never acknowledged, and the gateway drops any repeat of one that was.
import type { Channel, MsgTemplate, Recipient, SendResult } from '../core/schemas/index.js';
import { ConfigError } from '../errors.js';
import type { RequestOptions } from '../gateway/client.js';
import type { SendOptions } from '../gateway/resources/messages.js';
import { createMemoryJournal, type Journal } from './journal.js';

export const DEFAULT_BATCH_SIZE = 1000;
export const DEFAULT_CONCURRENCY = 2;

/** The part of the gateway client a bulk send needs. */
/** A batch's answer; `replayed` when the gateway had sent it earlier under the same key. */
export type BatchResult = SendResult & { replayed?: boolean };

export interface BatchSender {
  sendSms(
    payload: { numbers: Recipient[]; message: string; sendAt?: string },
    options?: SendOptions,
  ): Promise<BatchResult>;
  sendWhatsapp(
    payload: { numbers: Recipient[]; msgTemplate: MsgTemplate; sendAt?: string },
    options?: SendOptions,
  ): Promise<BatchResult>;
}

export interface BatchProgress {
  batchesDone: number;
  batchesTotal: number;
  recipientsDone: number;
  recipientsTotal: number;
}

export interface SendInBatchesOptions extends Pick<RequestOptions, 'signal'> {
  /** Names this send; the same key resumes it. Each batch is sent as `${key}:${batchIndex}`. */
  key: string;
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
  onProgress?: (progress: BatchProgress) => void;
  /** Default: in memory, which resumes only within this process. */
  journal?: Journal;
  /** Inferred from the content (text: sms, template: whatsapp); given, it must agree. */
  channel?: Channel;
  /** Schedules the send: an ISO date-time the gateway starts it at. */
  sendAt?: string;
}

export interface BatchSendSummary extends BatchProgress {
  key: string;
  /** Batches sent by this run. */
  batchesSent: number;
  /** Batches skipped because the journal says an earlier run already sent them. */
  batchesSkipped: number;
  /** Batches of this run the gateway had already sent under their key: nothing was sent again. */
  batchesReplayed: number;
  /** Recipients the gateway queued in this run's batches. */
  queued: number;
  /** Recipients the gateway skipped in this run's batches (opted out, invalid, landline). */
  skipped: NonNullable<SendResult['skipped']>;
  /** The gateway's job for each batch this run sent, to follow delivery (`client.sends.show`). */
  jobIds: string[];
  message: string;
}

export function splitIntoBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    batches.push(items.slice(start, start + size));
  }
  return batches;
}

export function batchIdempotencyKey(key: string, batchIndex: number): string {
  return `${key}:${batchIndex}`;
}

export async function sendInBatches(
  client: BatchSender,
  recipients: ReadonlyArray<string | Recipient>,
  content: string | MsgTemplate,
  options: SendInBatchesOptions,
): Promise<BatchSendSummary> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!options.key) throw new ConfigError('sendInBatches needs a key that names this send.');
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new ConfigError(`batchSize must be a whole number of at least 1; got ${batchSize}.`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigError(`concurrency must be a whole number of at least 1; got ${concurrency}.`);
  }
  const channel: Channel = typeof content === 'string' ? 'sms' : 'whatsapp';
  if (options.channel && options.channel !== channel) {
    throw new ConfigError(
      `channel '${options.channel}' does not match the content: ${channel === 'sms' ? 'a text message is sent as sms' : 'a template is sent as whatsapp'}.`,
    );
  }

  const numbers = recipients.map((r) =>
    typeof r === 'string' ? { number: r } : { number: r.number },
  );
  const batches = splitIntoBatches(numbers, batchSize);
  const journal = options.journal ?? createMemoryJournal();
  const acknowledged = await journal.load(options.key);
  const pending = batches.map((_, index) => index).filter((index) => !acknowledged.has(index));

  const progress: BatchProgress = {
    batchesDone: batches.length - pending.length,
    batchesTotal: batches.length,
    recipientsDone: batches.reduce(
      (sum, batch, index) => sum + (acknowledged.has(index) ? batch.length : 0),
      0,
    ),
    recipientsTotal: numbers.length,
  };
  const batchesSkipped = progress.batchesDone;
  let queued = 0;
  let batchesReplayed = 0;
  const skipped: BatchSendSummary['skipped'] = [];
  const jobIds: string[] = [];
  options.onProgress?.({ ...progress });

  const sendBatch = (batch: Recipient[], index: number): Promise<BatchResult> => {
    const sendOptions: SendOptions = {
      idempotencyKey: batchIdempotencyKey(options.key, index),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const sendAt = options.sendAt === undefined ? {} : { sendAt: options.sendAt };
    return typeof content === 'string'
      ? client.sendSms({ numbers: batch, message: content, ...sendAt }, sendOptions)
      : client.sendWhatsapp({ numbers: batch, msgTemplate: content, ...sendAt }, sendOptions);
  };

  let next = 0;
  let failure: { error: unknown } | undefined;
  async function worker(): Promise<void> {
    while (!failure && next < pending.length) {
      const index = pending[next++]!;
      const batch = batches[index]!;
      try {
        const result = await sendBatch(batch, index);
        // Journaled before it counts: a crash after this line never resends the batch.
        await journal.ack(options.key, index, result);
        if (result.replayed) batchesReplayed++;
        queued += result.queued ?? batch.length - (result.skipped?.length ?? 0);
        skipped.push(...(result.skipped ?? []));
        if (result.jobId) jobIds.push(result.jobId);
        progress.batchesDone++;
        progress.recipientsDone += batch.length;
        options.onProgress?.({ ...progress });
      } catch (error) {
        // Stop starting batches; those in flight finish and are journaled.
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  if (failure) throw failure.error;

  return {
    key: options.key,
    ...progress,
    batchesSent: pending.length,
    batchesSkipped,
    batchesReplayed,
    queued,
    skipped,
    jobIds,
    message: `Message sent successfully to ${numbers.length} users.`,
  };
}
