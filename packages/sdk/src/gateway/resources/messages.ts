// The bulk sends: POST sendsms and sendWhatsapp with an Idempotency-Key, and the job they start.
import {
  type MsgTemplate,
  type Recipient,
  type SendResult,
  sendResultSchema,
} from '../../core/schemas/index.js';
import { HttpError } from '../../errors.js';
import type { Requester, RequestOptions } from '../requester.js';

export interface SendOptions extends RequestOptions {
  /**
   * The gateway never sends one key twice and answers a repeat with the first result, which is
   * what makes a send safe to retry. Default: a fresh random key per call.
   */
  idempotencyKey?: string;
}

/**
 * The gateway's answer, with `message` always filled in (the success text), and `replayed` true
 * when the key was sent before: the answer is the first send's, and nothing was sent now.
 */
export type SendOutcome = SendResult & { message: string; replayed: boolean };

export function messagesResource(http: Requester) {
  async function send(
    path: string,
    body: { numbers: Recipient[] } & Record<string, unknown>,
    options: SendOptions = {},
  ): Promise<SendOutcome> {
    const { idempotencyKey = globalThis.crypto.randomUUID(), ...requestOptions } = options;
    const response = await http.request({
      method: 'POST',
      path,
      body,
      schema: sendResultSchema,
      idempotencyKey,
      options: requestOptions,
    });
    return {
      ...response.data,
      message: sendSuccessMessage(response.data, body.numbers.length),
      replayed: response.headers['idempotent-replayed'] === 'true',
    };
  }

  return {
    /** `sendAt` (an ISO date-time) schedules the send instead of starting it at once. */
    sendSms(
      payload: { numbers: Recipient[]; message: string; sendAt?: string },
      options?: SendOptions,
    ) {
      return send('/api/flex/v1/admin/sendsms', payload, options);
    },
    sendWhatsapp(
      payload: { numbers: Recipient[]; msgTemplate: MsgTemplate; sendAt?: string },
      options?: SendOptions,
    ) {
      return send('/api/flex/v1/admin/sendWhatsapp', payload, options);
    },
  };
}

/** What to show after a send: the server's message, else 'Message sent successfully to N users.'. */
function sendSuccessMessage(result: SendResult, recipients: number): string {
  return result.message ?? `Message sent successfully to ${recipients} users.`;
}

/** What to show when a send failed: the server's message, else 'An error has occurred.'. */
export function sendFailureMessage(error: unknown): string {
  return (error instanceof HttpError && error.serverMessage) || 'An error has occurred.';
}
