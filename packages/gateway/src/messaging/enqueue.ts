// Messages queued by the gateway itself (a driver's invitation to a friend, an alert) go through the
// same pipeline as an admin's send: a job with its recipient rows, the worker, the sender's pace,
// opt-outs, quiet hours and the job report. Queueing is idempotent by (createdBy, key), so a
// repeated call never texts anyone twice.
import { randomUUID } from 'node:crypto';
import type { Channel, SendResult } from '@blockcatch/sdk';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import { dropJobExpiry, setJobExpiry } from '../storage/message-expiry.js';
import { createSendJob } from '../storage/send-job-create.js';
import { composeSms, countWaitingForQuietHours, sortNumbers } from './compose.js';
import { senderFor } from './providers/index.js';
import { fingerprintRequest, sendAnswer } from './send-request.js';

export interface MessageToQueue {
  /** The user the message is sent for (an inviter, the driver an alert is for). */
  createdBy: string;
  /**
   * What makes it once only: a second call with the same createdBy and key queues nothing and
   * answers with the first job, e.g. `invitation:+13055550100`.
   */
  key: string;
  to: string | readonly string[];
  body: string;
  /**
   * Marketing (the default) waits for the recipient's quiet hours when they are on; false for a
   * message the recipient asked to get at any hour (an alert they set up).
   */
  quietHours?: boolean;
  /** Not before this time (epoch ms). */
  sendAt?: number | null;
  /**
   * Past this time (epoch ms, by the worker's clock) the message is not sent but marked expired:
   * a throttle alert after the throttle ends, "block won" once the block has started.
   */
  expiresAt?: number;
  /** SMS unless the recipient chose WhatsApp (free text: a WhatsApp session message, no template). */
  channel?: Channel;
}

/** The queued job: what the reply to an admin's send says, and whether this call created it. */
export type QueuedJob = SendResult & { created: boolean };

export type Enqueue = (message: MessageToQueue) => Promise<QueuedJob>;

export function createEnqueue(deps: {
  db: Db;
  config: GatewayConfig;
  /** The clock quiet hours are judged by. */
  now: () => number;
  /** Tells the worker a job was just queued. */
  onQueued: () => void;
}): Enqueue {
  const { db, config } = deps;
  return async (message) => {
    const numbers = typeof message.to === 'string' ? [message.to] : message.to;
    const sorted = sortNumbers(numbers.map((number) => ({ number })));
    const composed = composeSms(sorted, message.body);
    const quietHours = config.quietHours && message.quietHours !== false;
    const sendAt = message.sendAt ?? null;
    const waiting = quietHours
      ? await countWaitingForQuietHours(
          db,
          sorted.valid,
          sendAt ?? deps.now(),
          config.productTimeZone,
        )
      : 0;
    const channel = message.channel ?? 'sms';
    const jobId = randomUUID();
    const total = composed.recipients.to.length;
    if (message.expiresAt !== undefined) await setJobExpiry(db, jobId, message.expiresAt);
    const result = await createSendJob(
      db,
      {
        id: jobId,
        createdBy: message.createdBy,
        idempotencyKey: message.key,
        requestHash: fingerprintRequest(channel, { to: numbers, body: message.body }),
        channel,
        body: message.body,
        template: null,
        createdTs: Date.now(),
        sendAtTs: sendAt,
        sender: senderFor(config, channel),
        quietHours,
        origin: 'system',
      },
      composed.recipients,
      (skipped) => ({
        status: 202,
        body: sendAnswer(jobId, total - skipped.length, skipped, {
          sendAt,
          waitingForQuietHours: Math.min(waiting, total - skipped.length),
        }),
      }),
    );
    if (!result.created) {
      if (message.expiresAt !== undefined) await dropJobExpiry(db, jobId);
      return { ...result.existing.responseBody, created: false };
    }
    deps.onQueued();
    return { ...result.body, created: true };
  };
}
