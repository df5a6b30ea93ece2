// The send worker: claims due recipients in batches and delivers them through the provider at the
// configured rate. Any number of gateway processes may run one on the same database: rows are
// claimed with FOR UPDATE SKIP LOCKED, so no two workers ever hold the same recipient.
//
// Delivery guarantees:
// - Database provider (the outbox): the messages are written and the recipients marked sent in the
//   same transaction as the claim, so a process killed at any point delivers every recipient exactly
//   once: either the whole batch committed, or none of it did and another worker takes it again.
// - External provider (Twilio): an HTTP call cannot join our transaction. A claim marks the rows
//   'sending' with a lease (their next_attempt_ts) and counts the attempt, commits, then calls out.
//   If the process dies after Twilio accepted a message but before the row is marked sent, the lease
//   runs out and another worker sends it again: at-least-once, never silently lost.
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../storage/db.js';
import { findOptedOut, optOut } from '../storage/opt-outs.js';
import {
  type ClaimedRecipient,
  claimDueRecipients,
  type RecipientUpdate,
  updateRecipients,
} from '../storage/send-jobs.js';
import { MAX_ATTEMPTS, retryDelayMs, SendPacer } from './pacing.js';
import type {
  DatabaseProvider,
  DeliveryOutcome,
  ExternalProvider,
  MessageProvider,
  OutgoingMessage,
} from './providers/types.js';

export interface WorkerOptions {
  db: Db;
  provider: MessageProvider;
  log: FastifyBaseLogger;
  /** Messages per second for this process (N processes send up to N times it); 0 lifts the limit. */
  rate: number;
  /** First retry delay; later ones double. */
  retryBaseMs?: number;
  /** How long a claimed external send may take before another worker may retry it. */
  leaseMs?: number;
  /** Pause between polls when there was nothing (or not a full batch) to do. */
  idleMs?: number;
  /** Most recipients claimed in one transaction. */
  maxBatch?: number;
}

export interface SendWorker {
  start(): void;
  /** Waits for the batch in flight, then stops; no timers are left behind. */
  stop(): Promise<void>;
  /** Looks for work now instead of at the next poll (a job was just created). */
  wake(): void;
}

const EXTERNAL_CONCURRENCY = 10;

export function createSendWorker(options: WorkerOptions): SendWorker {
  const { db, provider, log, rate } = options;
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const leaseMs = options.leaseMs ?? 60_000;
  const idleMs = options.idleMs ?? 200;
  // Writing into our own database, a batch costs a few fixed round trips, so bigger batches deliver
  // faster (PGlite: ~10,000/s at 100, ~20,000/s at 500); an external provider keeps to 100, so a
  // batch's calls finish well within its lease.
  const maxBatch = options.maxBatch ?? (provider.kind === 'database' ? 500 : 100);

  let running = false;
  let loop: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let wakeSleeper: (() => void) | null = null;
  // A wake that came while a batch was in flight skips the next pause instead of being lost.
  let wokenEarly = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wokenEarly || !running) {
        wokenEarly = false;
        resolve();
        return;
      }
      wakeSleeper = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        wakeSleeper = null;
        resolve();
      };
      timer = setTimeout(() => wakeSleeper?.(), ms);
    });

  const deliverBatch = (limit: number) =>
    provider.kind === 'database'
      ? deliverInTransaction(db, provider, limit)
      : deliverExternally(db, provider, limit, { leaseMs, retryBaseMs });

  async function run(): Promise<void> {
    const pacer = new SendPacer(rate, maxBatch, Date.now());
    while (running) {
      const allowed = pacer.available(Date.now());
      if (allowed < 1) {
        await sleep(pacer.waitMs());
        continue;
      }
      let claimed = 0;
      try {
        claimed = await deliverBatch(allowed);
      } catch (error) {
        log.error({ err: error }, 'send worker batch failed; retrying after a pause');
      }
      pacer.spend(claimed);
      // A full batch means more is probably waiting: go again at once (the pacer still governs).
      if (running && claimed < allowed) await sleep(idleMs);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wakeSleeper?.();
      await loop;
      loop = null;
    },
    wake() {
      if (wakeSleeper) wakeSleeper();
      else wokenEarly = true;
    },
  };
}

const toMessage = (r: ClaimedRecipient): OutgoingMessage => ({
  channel: r.channel,
  to: r.to,
  body: r.body,
  jobId: r.jobId,
  ...(r.template === null || r.template === undefined ? {} : { template: r.template }),
});

const update = (
  r: ClaimedRecipient,
  fields: Partial<RecipientUpdate> & Pick<RecipientUpdate, 'status' | 'nextAttemptTs'>,
): RecipientUpdate => ({
  jobId: r.jobId,
  seq: r.seq,
  lastError: null,
  sentTs: null,
  addAttempts: 0,
  ...fields,
});

/**
 * A STOP that arrived after the job was queued still counts: such recipients are skipped rather
 * than delivered.
 */
async function withoutOptedOut(
  tx: Queryable,
  claimed: ClaimedRecipient[],
  now: number,
): Promise<{ deliver: ClaimedRecipient[]; optedOut: RecipientUpdate[] }> {
  const stopped = await findOptedOut(
    tx,
    claimed.map((r) => r.to),
  );
  if (stopped.size === 0) return { deliver: claimed, optedOut: [] };
  return {
    deliver: claimed.filter((r) => !stopped.has(r.to)),
    optedOut: claimed
      .filter((r) => stopped.has(r.to))
      .map((r) => update(r, { status: 'skipped-opted-out', nextAttemptTs: now })),
  };
}

/** Claim, write and mark sent in one transaction: exactly once. */
async function deliverInTransaction(
  db: Db,
  provider: DatabaseProvider,
  limit: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const now = Date.now();
    const claimed = await claimDueRecipients(tx, limit, now);
    if (claimed.length === 0) return 0;
    const { deliver, optedOut } = await withoutOptedOut(tx, claimed, now);
    await provider.deliverBatch(tx, deliver.map(toMessage));
    await updateRecipients(tx, [
      ...optedOut,
      ...deliver.map((r) =>
        update(r, { status: 'sent', nextAttemptTs: now, sentTs: now, addAttempts: 1 }),
      ),
    ]);
    return claimed.length;
  });
}

/** Lease, call out, record each outcome: at-least-once (see the module comment). */
async function deliverExternally(
  db: Db,
  provider: ExternalProvider,
  limit: number,
  timing: { leaseMs: number; retryBaseMs: number },
): Promise<number> {
  const { toSend, claimedCount } = await db.transaction(async (tx) => {
    const now = Date.now();
    const claimed = await claimDueRecipients(tx, limit, now);
    if (claimed.length === 0) return { toSend: [], claimedCount: 0 };
    const { deliver, optedOut } = await withoutOptedOut(tx, claimed, now);
    // A row whose final attempt's lease ran out (its process died) gets no sixth try.
    const exhausted = deliver.filter((r) => r.attempts >= MAX_ATTEMPTS);
    const toSend = deliver.filter((r) => r.attempts < MAX_ATTEMPTS);
    await updateRecipients(tx, [
      ...optedOut,
      ...exhausted.map((r) =>
        update(r, {
          status: 'failed',
          nextAttemptTs: now,
          lastError: 'the last attempt did not finish',
        }),
      ),
      ...toSend.map((r) =>
        update(r, { status: 'sending', nextAttemptTs: now + timing.leaseMs, addAttempts: 1 }),
      ),
    ]);
    return { toSend, claimedCount: claimed.length };
  });

  const outcomes = await mapLimited(toSend, EXTERNAL_CONCURRENCY, (r) =>
    provider.send(toMessage(r)),
  );
  const now = Date.now();
  const updates = toSend.map((r, i) => outcomeUpdate(r, outcomes[i]!, now, timing.retryBaseMs));
  await updateRecipients(db, updates);
  for (const [i, r] of toSend.entries()) {
    if (outcomes[i]?.kind === 'opted-out') await optOut(db, r.to, now);
  }
  return claimedCount;
}

function outcomeUpdate(
  r: ClaimedRecipient,
  outcome: DeliveryOutcome,
  now: number,
  retryBaseMs: number,
): RecipientUpdate {
  const attempts = r.attempts + 1;
  switch (outcome.kind) {
    case 'sent':
      return update(r, { status: 'sent', nextAttemptTs: now, sentTs: now });
    case 'invalid':
      return update(r, { status: 'skipped-invalid', nextAttemptTs: now, lastError: outcome.error });
    case 'opted-out':
      return update(r, {
        status: 'skipped-opted-out',
        nextAttemptTs: now,
        lastError: outcome.error,
      });
    case 'failed':
      return update(r, { status: 'failed', nextAttemptTs: now, lastError: outcome.error });
    case 'retry':
      return attempts >= MAX_ATTEMPTS
        ? update(r, { status: 'failed', nextAttemptTs: now, lastError: outcome.error })
        : update(r, {
            status: 'queued',
            nextAttemptTs: now + retryDelayMs(attempts, retryBaseMs),
            lastError: outcome.error,
          });
  }
}

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
