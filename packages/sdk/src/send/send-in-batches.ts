// Sends an audience as one job: the key names the job, and the recipients go in parts of at most
// `batchSize` (the gateway takes up to MAX_RECIPIENTS in one request), all under that key. The
// gateway keeps each number once per job, so a re-run, a resumed run, another batch size or a
// grown audience adds only the numbers the job does not have: nobody is skipped, nobody texted twice.
import { MAX_RECIPIENTS } from '../core/schemas/bounds.js';
import type { Channel, MsgTemplate, Recipient, SendResult } from '../core/schemas/index.js';
import { ConfigError } from '../errors.js';
import type { RequestOptions } from '../gateway/requester.js';
import type { SendOptions } from '../gateway/resources/messages.js';

export const DEFAULT_BATCH_SIZE = 1000;

/** A part's answer; `replayed` when the job already had every number of it (nothing sent now). */
export type BatchResult = SendResult & { replayed?: boolean };

/** The part of the gateway client a send needs. */
export interface BatchSender {
  sendSms(
    payload: { numbers: Recipient[]; message: string; sendAt?: string; localTime?: boolean },
    options?: SendOptions,
  ): Promise<BatchResult>;
  sendWhatsapp(
    payload: {
      numbers: Recipient[];
      msgTemplate: MsgTemplate;
      sendAt?: string;
      localTime?: boolean;
    },
    options?: SendOptions,
  ): Promise<BatchResult>;
}

export interface BatchProgress {
  recipientsDone: number;
  recipientsTotal: number;
}

export interface SendInBatchesOptions extends Pick<RequestOptions, 'signal'> {
  /** Names the job: every part is sent under it, and the same key resumes or grows it. */
  key: string;
  /** Recipients per request, 1 to MAX_RECIPIENTS. */
  batchSize?: number;
  onProgress?: (progress: BatchProgress) => void;
  /** Inferred from the content (text: sms, template: whatsapp); given, it must agree. */
  channel?: Channel;
  /** Schedules the send: an ISO date-time the gateway starts it at. */
  sendAt?: string;
  /** `sendAt` (without an offset) is the time in each recipient's own zone. */
  localTime?: boolean;
}

export interface BatchSendSummary extends BatchProgress {
  key: string;
  /** The one job the key names (`client.sends.show`). */
  jobId: string | null;
  /** Recipients this run added to the job: queued now, or skipped with a reason. */
  added: number;
  /** Recipients the job had before this run's requests: nothing was sent to them now. */
  earlier: number;
  /** Recipients queued (or scheduled) by this run. */
  queued: number;
  /** Recipients this run added that the gateway skipped (opted out, invalid, landline). */
  skipped: NonNullable<SendResult['skipped']>;
  /** Of those queued, how many wait for quiet hours, and until when (epoch ms). */
  waitingForQuietHours: number;
  quietHoursUntil: number | null;
  /** When a scheduled job starts (epoch ms), or null for at once. */
  sendAt: number | null;
  /** US dollars of what this run queued, at the gateway's prices. */
  estimatedCost: number;
  /** Every part was answered from the job as it was: nothing was sent now. */
  replayed: boolean;
}

export function splitIntoBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    batches.push(items.slice(start, start + size));
  }
  return batches;
}

export async function sendInBatches(
  client: BatchSender,
  recipients: ReadonlyArray<string | Recipient>,
  content: string | MsgTemplate,
  options: SendInBatchesOptions,
): Promise<BatchSendSummary> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!options.key) throw new ConfigError('sendInBatches needs a key that names the job.');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_RECIPIENTS) {
    throw new ConfigError(
      `batchSize must be a whole number from 1 to ${MAX_RECIPIENTS}; got ${batchSize}.`,
    );
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
  const summary: BatchSendSummary = {
    key: options.key,
    jobId: null,
    recipientsDone: 0,
    recipientsTotal: numbers.length,
    added: 0,
    earlier: 0,
    queued: 0,
    skipped: [],
    waitingForQuietHours: 0,
    quietHoursUntil: null,
    sendAt: null,
    estimatedCost: 0,
    replayed: true,
  };
  options.onProgress?.({ recipientsDone: 0, recipientsTotal: numbers.length });
  const sendOptions: SendOptions = {
    idempotencyKey: options.key,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const sendAt =
    options.sendAt === undefined
      ? {}
      : { sendAt: options.sendAt, ...(options.localTime ? { localTime: true } : {}) };
  // One part at a time: the gateway locks the job for each, so parallel parts would only queue.
  for (const part of splitIntoBatches(numbers, batchSize)) {
    const result =
      typeof content === 'string'
        ? await client.sendSms({ numbers: part, message: content, ...sendAt }, sendOptions)
        : await client.sendWhatsapp(
            { numbers: part, msgTemplate: content, ...sendAt },
            sendOptions,
          );
    const skipped = result.skipped ?? [];
    const queued = result.queued ?? 0;
    summary.jobId ??= result.jobId ?? null;
    summary.added += result.added ?? queued + skipped.length;
    summary.earlier += result.earlier ?? 0;
    summary.queued += queued;
    summary.skipped.push(...skipped);
    summary.waitingForQuietHours += result.waitingForQuietHours ?? 0;
    if (result.quietHoursUntil !== undefined) {
      summary.quietHoursUntil = Math.max(summary.quietHoursUntil ?? 0, result.quietHoursUntil);
    }
    summary.sendAt = result.sendAt ?? summary.sendAt;
    summary.estimatedCost += result.estimatedCost ?? 0;
    summary.replayed &&= result.replayed === true;
    summary.recipientsDone += part.length;
    options.onProgress?.({
      recipientsDone: summary.recipientsDone,
      recipientsTotal: numbers.length,
    });
  }
  summary.estimatedCost = Math.round(summary.estimatedCost * 10_000) / 10_000;
  if (numbers.length === 0) summary.replayed = false;
  return summary;
}
