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
//
// Pace and timing: each sender's segments per second are shared by every process through
// sender_pace (storage/sender-pace.ts); a message goes when its reserved slot comes. A marketing
// message due in its recipient's quiet hours goes back to the queue until 8 am in their zone.
import {
  findLinks,
  quietHoursRelease,
  regionTimeZone,
  replaceLinks,
  shortLink,
} from '@blockcatch/sdk';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../storage/db.js';
import { isDatabaseUnreachable } from '../storage/db-availability.js';
import { findOptedOut, findOptedOutOfSender, optOut, optOutOfSender } from '../storage/opt-outs.js';
import {
  findPausedSenders,
  PAUSED_ERROR,
  pauseSender,
  resumeSender,
  takeProbe,
} from '../storage/paused-senders.js';
import { findMarketingRefusals } from '../storage/recipient-skips.js';
import {
  anyRecipientDue,
  type ClaimedRecipient,
  claimDueRecipients,
  MARKETING_LANE,
  type RecipientUpdate,
  rememberUndeliverable,
  updateRecipients,
} from '../storage/send-jobs.js';
import { findRecipientLinks } from '../storage/send-links.js';
import { reserveSlots, slowSender } from '../storage/sender-pace.js';
import { type MessagingMetrics, NO_MESSAGING_METRICS } from './metrics.js';
import { MAX_ATTEMPTS, retryDelayMs } from './pacing.js';
import { simulatedDelivery } from './providers/outbox.js';
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
  /** Segments per second a sender may take, across every process; 0 lifts the limit. */
  rateFor: (sender: string) => number;
  /** The zone of a recipient whose region is unknown (quiet hours). */
  productTimeZone: string;
  /** Part of a sender's pace marketing may take (0–1, default 0.8). */
  marketingShare?: number;
  /** The sender marketing SMS go out from when it is not the job's (TWILIO_MARKETING_SENDER). */
  marketingSender?: string;
  /**
   * Marketing's consent and weekly cap, checked again when a recipient is claimed: consent
   * withdrawn since the send was queued, or the cap reached since, skips it.
   */
  marketingRules?: { consent: boolean; weeklyCap: number };
  /** Where marketing SMS short links point (BLOCKCATCH_LINK_BASE_URL); unset, texts go as stored. */
  linkBase?: string;
  /** How often a sender paused for refused credentials tries one message again (default 30 s). */
  pauseProbeMs?: number;
  /** Told once when a sender is paused (refused credentials), and when it resumes. */
  onSenderPaused?: (sender: string, reason: string) => void;
  onSenderResumed?: (sender: string) => void;
  /**
   * The clock quiet hours and expiries are judged by (default Date.now); pacing always uses real
   * time.
   */
  now?: () => number;
  /** How long every process waits after the provider says 429, before any next message. */
  rateLimitPauseMs?: number;
  /** First retry delay; later ones double. */
  retryBaseMs?: number;
  /** How long a claimed external send may take before another worker may retry it. */
  leaseMs?: number;
  /** Pause between polls when there was nothing (or not a full batch) to do. */
  idleMs?: number;
  /** Most recipients claimed in one transaction. */
  maxBatch?: number;
  /** Recipients claimed per batch: about 200 ms of the sender's pace, so slots stay close. */
  batchLimit?: number;
  /**
   * Most provider calls open at once (external providers); also the most recipients claimed and not
   * yet answered, so a slow provider holds back claims instead of letting leases run out.
   */
  maxInFlight?: number;
  /** Told of each message handed to the provider and of what became of it. */
  metrics?: MessagingMetrics;
}

interface Timing {
  marketingSender: string | undefined;
  marketingRules: { consent: boolean; weeklyCap: number };
  linkBase: string | undefined;
  pauseProbeMs: number;
  onSenderPaused: (sender: string, reason: string) => void;
  onSenderResumed: (sender: string) => void;
  leaseMs: number;
  retryBaseMs: number;
  rateFor: (sender: string) => number;
  marketingShare: number;
  productTimeZone: string;
  clock: () => number;
  rateLimitPauseMs: number;
  metrics: MessagingMetrics;
}

export interface SendWorker {
  start(): void;
  /** Waits for the batch in flight, then stops; no timers are left behind. */
  stop(): Promise<void>;
  /** Looks for work now instead of at the next poll (a job was just created). */
  wake(): void;
}

const MAX_IN_FLIGHT = 50;

/** The longest pause between tries while batches fail (the database is away). */
const FAILURE_PAUSE_MAX_MS = 2000;

/** How long before a batch's slots run out the worker claims the next (its claim takes time). */
const PACE_LEAD_MS = 100;

interface Batch {
  claimed: number;
  /** When the slots reserved for this batch run out. */
  slotsEnd?: number;
  /** When its first slot starts (external batches). */
  slotsStart?: number;
  /** An external batch's calls and their outcomes, still under way after the claim returns. */
  settled?: Promise<void>;
}

export function createSendWorker(options: WorkerOptions): SendWorker {
  const { db, provider, log, rateFor } = options;
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const leaseMs = options.leaseMs ?? 60_000;
  const idleMs = options.idleMs ?? 200;
  // Writing into our own database, a batch costs a few fixed round trips, so bigger batches deliver
  // faster (PGlite: ~10,000/s at 100, ~20,000/s at 500); an external provider keeps to 100, so a
  // batch's calls finish well within its lease.
  const maxBatch = options.maxBatch ?? (provider.kind === 'database' ? 500 : 100);
  const timing: Timing = {
    leaseMs,
    retryBaseMs,
    rateFor,
    marketingShare: options.marketingShare ?? 0.8,
    marketingSender: options.marketingSender,
    marketingRules: options.marketingRules ?? { consent: false, weeklyCap: 0 },
    linkBase: options.linkBase,
    pauseProbeMs: options.pauseProbeMs ?? 30_000,
    onSenderPaused: options.onSenderPaused ?? (() => {}),
    onSenderResumed: options.onSenderResumed ?? (() => {}),
    productTimeZone: options.productTimeZone,
    clock: options.now ?? Date.now,
    rateLimitPauseMs: options.rateLimitPauseMs ?? 1000,
    metrics: options.metrics ?? NO_MESSAGING_METRICS,
  };

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

  // Waits for the pace; only stop() cuts it short (a new job must not pull the next batch ahead).
  let stopPaceWait: (() => void) | null = null;
  const paceWait = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = setTimeout(() => {
        stopPaceWait = null;
        resolve();
      }, ms);
      stopPaceWait = () => {
        clearTimeout(done);
        stopPaceWait = null;
        resolve();
      };
    });

  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  const lanes = createLanes(maxInFlight);
  // External batches whose calls are still open, and how many recipients they hold.
  const open = new Set<Promise<void>>();
  let unanswered = 0;

  const deliverBatch = (limit: number): Promise<Batch> =>
    provider.kind === 'database'
      ? deliverInTransaction(db, provider, limit, timing)
      : deliverExternally(db, provider, limit, timing, lanes, log);

  async function run(): Promise<void> {
    let failures = 0;
    // After a batch that was not full: the next one first asks whether anything is due, one read,
    // instead of opening a claim's transaction every idleMs for nothing.
    let idle = true;
    while (running) {
      const limit = options.batchLimit ?? maxBatch;
      const size = Math.min(limit, maxBatch);
      // The provider's answers do not hold back the next claim (the pace would drift by each
      // batch's last answer); only too many unanswered recipients do.
      while (running && open.size > 0 && unanswered >= maxInFlight) await Promise.race(open);
      if (!running) break;
      let batch: Batch;
      try {
        batch =
          idle && !(await anyRecipientDue(db, Date.now()))
            ? { claimed: 0 }
            : await deliverBatch(size);
        if (failures > 0) log.info('send worker resumed');
        failures = 0;
      } catch (error) {
        // The claim's transaction rolled back: its recipients are queued again. A lost database
        // pauses the worker with a growing pause (one line per outage), so it resumes by itself
        // within FAILURE_PAUSE_MAX_MS of the database coming back.
        failures++;
        if (!isDatabaseUnreachable(error) || failures === 1) {
          log.error({ err: error }, 'send worker batch failed; retrying after a pause');
        }
        await sleep(Math.min(FAILURE_PAUSE_MAX_MS, idleMs * 2 ** failures));
        continue;
      }
      idle = batch.claimed < size;
      if (batch.settled) {
        const claimed = batch.claimed;
        unanswered += claimed;
        const settled: Promise<void> = batch.settled.then(() => {
          unanswered -= claimed;
          open.delete(settled);
        });
        open.add(settled);
      }
      // The next batch is claimed a little before this one's slots run out, so its slots follow
      // on without a gap: the pace holds over minutes instead of losing each batch's overhead.
      // An external batch's next claim goes out when its slots start: on a busy machine a claim can
      // take longer than PACE_LEAD_MS, and each late claim would push the pace back.
      const lead = Math.max(PACE_LEAD_MS, (batch.slotsEnd ?? 0) - (batch.slotsStart ?? Infinity));
      const wait = (batch.slotsEnd ?? 0) - lead - Date.now();
      if (running && wait > 0) await paceWait(wait);
      // A full batch means more is probably waiting: go again at once (the slots still govern).
      if (running && batch.claimed < limit) await sleep(idleMs);
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
      stopPaceWait?.();
      await loop;
      await Promise.all(open);
      loop = null;
    },
    wake() {
      if (wakeSleeper) wakeSleeper();
      else wokenEarly = true;
    },
  };
}

const toMessage = (r: ClaimedRecipient): OutgoingMessage => {
  const contentSid =
    r.content?.contentSid ?? (r.template as { contentSid?: string } | null)?.contentSid;
  return {
    channel: r.channel,
    to: r.to,
    body: r.body,
    jobId: r.jobId,
    ...(r.template === null || r.template === undefined ? {} : { template: r.template }),
    ...(typeof contentSid === 'string' ? { contentSid } : {}),
    ...(r.content ? { variables: r.content.variables } : {}),
    ...(r.from ? { from: r.from } : {}),
  };
};

const sleepUntil = (ts: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ts - Date.now())));

/**
 * Marketing recipients in their quiet hours wait (queued) until 8 am in their zone; the rest go.
 */
function outsideQuietHours(
  claimed: ClaimedRecipient[],
  now: number,
  timing: Timing,
): { ready: ClaimedRecipient[]; waiting: RecipientUpdate[] } {
  const ready: ClaimedRecipient[] = [];
  const waiting: RecipientUpdate[] = [];
  const clock = timing.clock();
  for (const r of claimed) {
    const zone = regionTimeZone(r.region, timing.productTimeZone);
    const release = r.quietHours ? quietHoursRelease(clock, zone) : clock;
    if (release <= clock) ready.push(r);
    // Due again when the wall clock reaches 8 am there (converted to this process's time base).
    else waiting.push(update(r, { status: 'queued', nextAttemptTs: now + (release - clock) }));
  }
  return { ready, waiting };
}

/**
 * Reserves each message's slot in its sender's pace; returns the start of each, in order, and when
 * the last one ends. A message of n segments takes n slots; a marketing segment takes its slot
 * stretched by 1/share, so marketing alone never uses more than its share of the pace. Codes,
 * alerts and invitations reserve first (the claim put them first).
 */
async function reserve(
  db: Queryable,
  recipients: ClaimedRecipient[],
  now: number,
  timing: Pick<Timing, 'rateFor' | 'marketingShare'>,
): Promise<number[] & { end?: number }> {
  const starts: number[] & { end?: number } = new Array<number>(recipients.length).fill(now);
  const groups = new Map<string, { sender: string; marketing: boolean; indexes: number[] }>();
  for (const [i, r] of recipients.entries()) {
    const marketing = r.lane === MARKETING_LANE;
    const key = `${marketing ? 1 : 0}${r.sender}`;
    const group = groups.get(key) ?? { sender: r.sender, marketing, indexes: [] };
    group.indexes.push(i);
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((a, b) => Number(a.marketing) - Number(b.marketing));
  for (const { sender, marketing, indexes } of ordered) {
    const rate = timing.rateFor(sender);
    if (rate === 0) continue;
    const interval = 1000 / (marketing ? rate * timing.marketingShare : rate);
    const total = indexes.reduce((sum, i) => sum + recipients[i]!.segments, 0);
    let at = await reserveSlots(db, sender, total, interval, now);
    for (const i of indexes) {
      starts[i] = at;
      at += recipients[i]!.segments * interval;
    }
    starts.end = Math.max(starts.end ?? 0, at);
  }
  return starts;
}

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
 * Recipients skipped for what changed since they were queued: a STOP (it still counts) and, for
 * marketing, consent withdrawn or the weekly cap filled. A STOP wins over the others.
 */
async function withoutSkipped(
  tx: Queryable,
  claimed: ClaimedRecipient[],
  now: number,
  timing: Timing,
): Promise<{ deliver: ClaimedRecipient[]; skipped: RecipientUpdate[] }> {
  // Asked together: inside a transaction on PGlite, each round trip keeps the one connection.
  // The refusals are read for every marketing recipient, opted out or not: none depends on another.
  const [stopped, stoppedSender, refusals] = await Promise.all([
    findOptedOut(
      tx,
      claimed.map((r) => r.to),
    ),
    findOptedOutOfSender(tx, claimed),
    findMarketingRefusals(
      tx,
      claimed.filter((r) => r.lane === MARKETING_LANE),
      now,
      { ...timing.marketingRules, optOutSender: null },
    ),
  ]);
  const deliver: ClaimedRecipient[] = [];
  const skipped: RecipientUpdate[] = [];
  for (const r of claimed) {
    const status =
      stopped.has(r.to) || stoppedSender.has(`${r.to} ${r.sender}`)
        ? 'skipped-opted-out'
        : r.lane === MARKETING_LANE
          ? (refusals.get(`${r.to} ${r.jobId}`) as RecipientUpdate['status'] | undefined)
          : undefined;
    if (status) skipped.push(update(r, { status, nextAttemptTs: now }));
    else deliver.push(r);
  }
  return { deliver, skipped };
}

/**
 * Marketing SMS go out from marketing's own sender when it has one (its pace, its opt-outs), with
 * each recipient's own short links in place of the addresses.
 */
async function claim(
  tx: Queryable,
  limit: number,
  now: number,
  timing: Timing,
): Promise<ClaimedRecipient[]> {
  const claimed = await withShortLinks(tx, await claimDueRecipients(tx, limit, now), timing);
  const marketing = timing.marketingSender;
  if (!marketing) return claimed;
  return claimed.map((r) =>
    r.lane === MARKETING_LANE && r.channel === 'sms' && r.sender !== marketing
      ? { ...r, sender: marketing, from: marketing }
      : r,
  );
}

/** Each marketing SMS with the recipient's codes (made with the send) in place of its addresses. */
async function withShortLinks(
  tx: Queryable,
  claimed: ClaimedRecipient[],
  timing: Timing,
): Promise<ClaimedRecipient[]> {
  const base = timing.linkBase;
  const marketing = claimed.filter(
    (r) => r.messageClass === 'marketing' && r.channel === 'sms' && findLinks(r.body).length > 0,
  );
  if (base === undefined || marketing.length === 0) return claimed;
  const links = await findRecipientLinks(tx, marketing);
  return claimed.map((r) => {
    const codes = links.get(`${r.jobId} ${r.seq}`);
    if (!codes) return r;
    const body = replaceLinks(r.body, (url, i) => {
      const code = codes[i];
      return code === undefined ? url : shortLink(base, code);
    });
    return { ...r, body };
  });
}

/**
 * Recipients of a paused sender wait queued (nothing failed); once per probe interval one of them
 * goes, to try the credentials again. Returns which senders are being probed.
 */
async function withoutPaused(
  tx: Queryable,
  claimed: ClaimedRecipient[],
  paused: ReadonlySet<string>,
  now: number,
  timing: Timing,
): Promise<{ go: ClaimedRecipient[]; held: RecipientUpdate[]; probes: Set<string> }> {
  const probes = new Set<string>();
  if (paused.size === 0) return { go: claimed, held: [], probes };
  const go: ClaimedRecipient[] = [];
  const held: RecipientUpdate[] = [];
  const tried = new Set<string>();
  for (const r of claimed) {
    if (!paused.has(r.sender)) go.push(r);
    else if (!tried.has(r.sender) && (await takeProbe(tx, r.sender, now, timing.pauseProbeMs))) {
      tried.add(r.sender);
      probes.add(r.sender);
      go.push(r);
    } else {
      tried.add(r.sender);
      held.push(
        update(r, {
          status: 'queued',
          nextAttemptTs: now + timing.pauseProbeMs,
          lastError: PAUSED_ERROR,
        }),
      );
    }
  }
  return { go, held, probes };
}

/** A refused credential pauses its sender (the owner is told once); a probe that went resumes it. */
async function senderHealth(
  db: Queryable,
  sent: ClaimedRecipient[],
  outcomes: DeliveryOutcome[],
  probes: Set<string>,
  now: number,
  timing: Timing,
): Promise<void> {
  const refused = new Map<string, string>();
  const working = new Set<string>();
  for (const [i, r] of sent.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.kind === 'unauthorized') refused.set(r.sender, outcome.error);
    else if (outcome.kind === 'sent' && probes.has(r.sender)) working.add(r.sender);
  }
  for (const [sender, reason] of refused) {
    if (await pauseSender(db, sender, reason, now, timing.pauseProbeMs)) {
      timing.onSenderPaused(sender, reason);
    }
  }
  for (const sender of working) {
    if (!refused.has(sender) && (await resumeSender(db, sender, now)))
      timing.onSenderResumed(sender);
  }
}

/** Messages past their expiry (by the injected clock) are marked expired instead of sent. */
function unexpired(
  claimed: ClaimedRecipient[],
  now: number,
  timing: Timing,
): { live: ClaimedRecipient[]; expired: RecipientUpdate[] } {
  const clock = timing.clock();
  const isExpired = (r: ClaimedRecipient) => r.expiresTs !== null && r.expiresTs <= clock;
  if (!claimed.some(isExpired)) return { live: claimed, expired: [] };
  return {
    live: claimed.filter((r) => !isExpired(r)),
    expired: claimed
      .filter(isExpired)
      .map((r) => update(r, { status: 'expired', nextAttemptTs: now, lastError: 'expired' })),
  };
}

/** Claim, write and mark sent in one transaction: exactly once. */
async function deliverInTransaction(
  db: Db,
  provider: DatabaseProvider,
  limit: number,
  timing: Timing,
): Promise<Batch> {
  // Counted once the transaction has committed.
  let handed: { r: ClaimedRecipient; at: number }[] = [];
  let settled: RecipientUpdate[] = [];
  const batch = await db.transaction(async (tx): Promise<Batch> => {
    const now = Date.now();
    const claimed = await claim(tx, limit, now, timing);
    if (claimed.length === 0) return { claimed: 0 };
    const { live, expired } = unexpired(claimed, now, timing);
    const { deliver: open, skipped } = await withoutSkipped(tx, live, now, timing);
    const { ready: deliver, waiting } = outsideQuietHours(open, now, timing);
    const starts = await reserve(tx, deliver, now, timing);
    // The outbox delivers each message at its own slot: it is stamped with it, as a provider
    // draining its queue at the pace would. The batch (about 200 ms of pace) commits at once, so it
    // shows up to that much before its last slot; the worker then waits for the slots to run out.
    const slots = starts.map((start) => Math.ceil(start));
    const sentTs = Date.now();
    await provider.deliverBatch(
      tx,
      deliver.map((r, i) => ({ ...toMessage(r), at: slots[i]! })),
    );
    const reports = deliver.map((r, i) => ({
      r,
      at: slots[i]!,
      to: r.to,
      ...simulatedDelivery(r.to),
    }));
    const updates = [
      ...expired,
      ...skipped,
      ...waiting,
      ...reports.map(({ r, at, status, errorCode }) =>
        update(r, { status, errorCode, nextAttemptTs: at, sentTs: at, addAttempts: 1 }),
      ),
    ];
    await Promise.all([
      updateRecipients(tx, updates, sentTs),
      rememberUndeliverable(tx, reports, sentTs),
    ]);
    handed = reports;
    settled = updates;
    return {
      claimed: claimed.length,
      ...(starts.end === undefined ? {} : { slotsEnd: starts.end }),
    };
  });
  for (const { r, at } of handed) timing.metrics.handed(r.messageClass, at - r.queuedTs);
  countOutcomes(settled, timing.metrics);
  return batch;
}

/** Counts the messages whose state is settled for now: not waiting for a later try. */
function countOutcomes(updates: readonly RecipientUpdate[], metrics: MessagingMetrics): void {
  for (const u of updates) {
    if (u.status !== 'queued' && u.status !== 'sending') metrics.outcome(u.status);
  }
}

/**
 * Lease, then call out and record each outcome: at-least-once (see the module comment). Returns
 * once the batch is claimed and its slots reserved; the calls go at their slots through `lanes`
 * and `settled` resolves when every outcome is recorded.
 */
async function deliverExternally(
  db: Db,
  provider: ExternalProvider,
  limit: number,
  timing: Timing,
  lanes: Lanes,
  log: FastifyBaseLogger,
): Promise<Batch> {
  const { toSend, claimedCount, probes, decided } = await db.transaction(async (tx) => {
    const now = Date.now();
    const claimed = await claim(tx, limit, now, timing);
    if (claimed.length === 0) {
      return { toSend: [], claimedCount: 0, probes: new Set<string>(), decided: [] };
    }
    const { live, expired } = unexpired(claimed, now, timing);
    const [{ deliver: open, skipped }, paused] = await Promise.all([
      withoutSkipped(tx, live, now, timing),
      findPausedSenders(tx),
    ]);
    const { ready: deliver, waiting } = outsideQuietHours(open, now, timing);
    const { go, held, probes } = await withoutPaused(tx, deliver, paused, now, timing);
    // A row whose final attempt's lease ran out (its process died) gets no sixth try.
    const exhausted = go.filter((r) => r.attempts >= MAX_ATTEMPTS);
    const toSend = go.filter((r) => r.attempts < MAX_ATTEMPTS);
    const givenUp = exhausted.map((r) =>
      update(r, {
        status: 'failed',
        nextAttemptTs: now,
        lastError: 'the last attempt did not finish',
      }),
    );
    await updateRecipients(tx, [
      ...held,
      ...expired,
      ...skipped,
      ...waiting,
      ...givenUp,
      ...toSend.map((r) =>
        update(r, { status: 'sending', nextAttemptTs: now + timing.leaseMs, addAttempts: 1 }),
      ),
    ]);
    return {
      toSend,
      claimedCount: claimed.length,
      probes,
      // Refusals counted too, as the outbox path counts them.
      decided: [...expired, ...skipped, ...givenUp],
    };
  });
  countOutcomes(decided, timing.metrics);
  if (toSend.length === 0) return { claimed: claimedCount };

  const starts = await reserve(db, toSend, Date.now(), timing);
  const outcomes: DeliveryOutcome[] = new Array(toSend.length);
  const calls = toSend.map(async (r, i) => {
    await sleepUntil(starts[i]!);
    const outcome = await lanes.run(() => {
      timing.metrics.handed(r.messageClass, Date.now() - r.queuedTs);
      return provider.send(toMessage(r));
    });
    if (outcome.kind === 'retry' && outcome.rateLimited) {
      await slowSender(db, r.sender, timing.rateLimitPauseMs, Date.now());
    }
    outcomes[i] = outcome;
  });
  const settled = (async () => {
    await Promise.all(calls);
    const now = Date.now();
    const updates = toSend.map((r, i) =>
      outcomeUpdate(r, outcomes[i]!, now, timing.retryBaseMs, timing.pauseProbeMs),
    );
    await updateRecipients(db, updates, now);
    countOutcomes(updates, timing.metrics);
    await senderHealth(db, toSend, outcomes, probes, now, timing);
    for (const [i, r] of toSend.entries()) {
      if (outcomes[i]?.kind !== 'opted-out') continue;
      // The carrier blocked this sender for the number: with senders kept apart, only this one.
      const separate = timing.marketingSender !== undefined && timing.marketingSender !== r.sender;
      if (r.from || separate) await optOutOfSender(db, r.to, r.sender, now);
      else await optOut(db, r.to, now);
    }
  })().catch((error: unknown) => {
    // The rows stay 'sending' until their lease runs out, then go again (at-least-once).
    log.error({ err: error }, 'send worker could not record a batch; its lease will retry it');
  });
  return {
    claimed: claimedCount,
    settled,
    ...(starts.end === undefined ? {} : { slotsEnd: starts.end, slotsStart: Math.min(...starts) }),
  };
}

function outcomeUpdate(
  r: ClaimedRecipient,
  outcome: DeliveryOutcome,
  now: number,
  retryBaseMs: number,
  pauseProbeMs: number,
): RecipientUpdate {
  const attempts = r.attempts + 1;
  switch (outcome.kind) {
    case 'sent':
      return update(r, {
        status: 'sent',
        nextAttemptTs: now,
        sentTs: now,
        providerSid: outcome.sid ?? null,
      });
    case 'invalid':
      return update(r, {
        status: 'skipped-invalid',
        nextAttemptTs: now,
        lastError: outcome.error,
        errorCode: outcome.code ?? null,
      });
    case 'opted-out':
      return update(r, {
        status: 'skipped-opted-out',
        nextAttemptTs: now,
        lastError: outcome.error,
        errorCode: outcome.code ?? null,
      });
    case 'unauthorized':
      // Waits for the sender to resume; the attempt the claim counted is given back.
      return update(r, {
        status: 'queued',
        nextAttemptTs: now + pauseProbeMs,
        lastError: PAUSED_ERROR,
        addAttempts: -1,
      });
    case 'failed':
      return update(r, {
        status: 'failed',
        nextAttemptTs: now,
        lastError: outcome.error,
        errorCode: outcome.code ?? null,
      });
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

interface Lanes {
  run<T>(call: () => Promise<T>): Promise<T>;
}

/** At most `limit` calls open at once; the rest wait their turn in order. */
function createLanes(limit: number): Lanes {
  let open = 0;
  const queue: (() => void)[] = [];
  return {
    async run(call) {
      if (open >= limit) await new Promise<void>((resolve) => queue.push(resolve));
      else open++;
      try {
        return await call();
      } finally {
        const next = queue.shift();
        if (next) next();
        else open--;
      }
    },
  };
}
