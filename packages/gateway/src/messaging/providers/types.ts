// What a message provider is to the worker: either it writes into our own database (and so can
// deliver inside the worker's transaction, exactly once), or it calls out to an external service.
import type { Channel } from '@blockcatch/sdk';
import type { Queryable } from '../../storage/db.js';

export interface OutgoingMessage {
  channel: Channel;
  /** `+1XXXXXXXXXX`. */
  to: string;
  body: string;
  /** The WhatsApp template the body was rendered from, kept with the message. */
  template?: unknown;
  /** The template's provider content id and the values of its variables, by key. */
  contentSid?: string;
  variables?: Record<string, string>;
  jobId?: string;
  /** Another sender than the configured one (marketing's own number or `MG…` service). */
  from?: string;
  /**
   * When its slot in the sender's pace came (epoch ms). The outbox, written a batch at a time,
   * stamps each message with it, as a provider releasing its queue at the pace would.
   */
  at?: number;
}

/** How one external delivery ended, which decides whether the worker tries again. */
export type DeliveryOutcome =
  /** Accepted; `sid` is the provider's id for it, which its status callbacks name. */
  | { kind: 'sent'; sid?: string }
  /** The number cannot receive messages: recorded skipped-invalid, never retried. */
  | { kind: 'invalid'; error: string; code?: number }
  /** The number replied STOP at the provider's end. */
  | { kind: 'opted-out'; error: string; code?: number }
  /** Worth another try later: rate limited, a server error or the network. */
  | { kind: 'retry'; error: string; rateLimited?: boolean }
  /**
   * The provider refused our credentials (Twilio 401 / 20003, e.g. a rotated auth token): the
   * sender is paused and the message waits, nothing is failed.
   */
  | { kind: 'unauthorized'; error: string; code?: number }
  /** A refusal that another try would repeat (a malformed request). */
  | { kind: 'failed'; error: string; code?: number };

export interface DatabaseProvider {
  kind: 'database';
  name: string;
  /** Writes the messages with `tx`, so they commit or roll back with the recipients' new states. */
  deliverBatch(tx: Queryable, messages: readonly OutgoingMessage[]): Promise<void>;
}

export interface ExternalProvider {
  kind: 'external';
  name: string;
  send(message: OutgoingMessage): Promise<DeliveryOutcome>;
}

export type MessageProvider = DatabaseProvider | ExternalProvider;
