// Send jobs and their recipients: created in one transaction with the request's answer (see
// send-job-create.ts), then claimed by the worker in batches with SKIP LOCKED.
import {
  type Channel,
  providerErrorMeaning,
  RECIPIENT_STATES,
  type RecipientState,
  type SendResult,
} from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

const RECIPIENT_STATUSES = RECIPIENT_STATES;
export type RecipientStatus = RecipientState;

export interface NewSendJob {
  id: string;
  createdBy: string;
  idempotencyKey: string;
  requestHash: string;
  channel: Channel;
  body: string;
  template: unknown;
  createdTs: number;
  /** A scheduled send's start; unset starts at once. */
  sendAtTs?: number | null;
  /** Whose pace the job's messages take (a number, a messaging service, or the outbox). */
  sender: string;
  /** Whether marketing quiet hours apply (one-time codes are exempt). */
  quietHours?: boolean;
  /** An admin's send (the default), or one the gateway queued itself (an invitation, an alert). */
  origin?: JobOrigin;
}

export type JobOrigin = 'admin' | 'system';

/**
 * The recipients of a new job, one array per column so 100,000 rows go in one statement. `body`
 * and `variables` are per recipient when a template fills in their own fields (else the job's
 * body); `skip` records a number that cannot be sent to, with its reason.
 */
export interface NewRecipients {
  to: string[];
  skip?: (null | 'skipped-invalid' | 'skipped-landline')[];
  body?: (string | null)[];
  content?: (RecipientContent | null)[];
  timeZone?: (string | null)[];
  segments?: number[];
  /** Each recipient's own due time (a send at 10:00 in each recipient's zone); else the job's. */
  due?: number[];
}

/** The template content one recipient gets: the provider's content id and the variables' values. */
export interface RecipientContent {
  contentSid?: string;
  variables: Record<string, string>;
}

export type { SkipReason } from '@blockcatch/sdk';

export interface StoredAnswer {
  id: string;
  requestHash: string;
  responseStatus: number;
  responseBody: SendResult;
}

interface AnswerRow {
  id: string;
  request_hash: string;
  response_status: number;
  response_body: SendResult;
}

const toAnswer = (row: AnswerRow): StoredAnswer => ({
  id: row.id,
  requestHash: row.request_hash,
  responseStatus: row.response_status,
  responseBody: row.response_body,
});

export async function findJobByIdempotencyKey(
  db: Queryable,
  createdBy: string,
  idempotencyKey: string,
): Promise<StoredAnswer | null> {
  const rows = await db.query<AnswerRow>(
    `SELECT id, request_hash, response_status, response_body FROM send_jobs
     WHERE created_by = $1 AND idempotency_key = $2`,
    [createdBy, idempotencyKey],
  );
  return rows[0] ? toAnswer(rows[0]) : null;
}

/** A job as lists and reports show it: who, when, what, and how its recipients stand. */
export interface JobSummary {
  jobId: string;
  channel: Channel;
  createdAt: number;
  createdBy: string;
  /** The message as sent (a template's rendered text for the first recipient). */
  body: string;
  templateName: string | null;
  sendAt: number | null;
  cancelledAt: number | null;
  total: number;
  counts: Record<RecipientStatus, number>;
  segments: number;
  /** Estimated provider cost in US dollars of what was (or will be) sent. */
  estimatedCost: number;
  /** True once no recipient is queued or being sent. */
  done: boolean;
}

/** What one recipient's row in a report says. */
export interface RecipientRow {
  seq: number;
  to: string;
  status: RecipientStatus;
  errorCode: number | null;
  /** The error code's meaning, or the gateway's own reason. */
  error: string | null;
  segments: number;
  attempts: number;
  /** When it was handed to the provider, and when its last status came. */
  sentAt: number | null;
  statusAt: number | null;
  /** Not before this time: a scheduled start, a retry, or quiet hours. */
  dueAt: number;
}

export interface JobReport extends JobSummary {
  recipients: RecipientRow[];
  /** Recipients after `recipients`: read them with `afterSeq`. */
  more: boolean;
}

export interface Prices {
  smsSegment: number;
  whatsappMessage: number;
}

/** States that cost money: whatever the provider accepted or will. */
const BILLABLE = new Set<RecipientStatus>([
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
]);

const emptyCounts = () =>
  Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, 0])) as Record<RecipientStatus, number>;

interface JobRow {
  id: string;
  channel: Channel;
  created_ts: number;
  created_by: string;
  body: string;
  template: { name?: string } | null;
  send_at_ts: number | null;
  cancelled_ts: number | null;
}

const JOB_COLUMNS = 'id, channel, created_ts, created_by, body, template, send_at_ts, cancelled_ts';

async function summarise(db: Queryable, jobs: JobRow[], prices: Prices): Promise<JobSummary[]> {
  if (jobs.length === 0) return [];
  const rows = await db.query<{ job_id: string; status: RecipientStatus; n: number; seg: number }>(
    `SELECT job_id, status, count(*)::int AS n, sum(segments)::int AS seg FROM send_recipients
     WHERE job_id = ANY($1::text[]) GROUP BY job_id, status`,
    [jobs.map((j) => j.id)],
  );
  return jobs.map((job) => {
    const counts = emptyCounts();
    let total = 0;
    let segments = 0;
    for (const row of rows) {
      if (row.job_id !== job.id) continue;
      counts[row.status] = row.n;
      total += row.n;
      if (BILLABLE.has(row.status)) segments += row.seg;
    }
    const billable = [...BILLABLE].reduce((sum, s) => sum + counts[s], 0);
    const estimatedCost =
      job.channel === 'sms' ? segments * prices.smsSegment : billable * prices.whatsappMessage;
    return {
      jobId: job.id,
      channel: job.channel,
      createdAt: Number(job.created_ts),
      createdBy: job.created_by,
      body: job.body,
      templateName: job.template?.name ?? null,
      sendAt: job.send_at_ts === null ? null : Number(job.send_at_ts),
      cancelledAt: job.cancelled_ts === null ? null : Number(job.cancelled_ts),
      total,
      counts,
      segments,
      estimatedCost: Math.round(estimatedCost * 10_000) / 10_000,
      done: counts.queued === 0 && counts.sending === 0,
    };
  });
}

/** Newest first; `before` (a job's createdAt) pages back; admins' sends unless `origin` says. */
export async function listJobs(
  db: Queryable,
  prices: Prices,
  options: { limit?: number; before?: number; origin?: JobOrigin | 'all' } = {},
): Promise<JobSummary[]> {
  const origin = options.origin ?? 'admin';
  const jobs = await db.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM send_jobs WHERE created_ts < $1 AND ($3 = 'all' OR origin = $3)
     ORDER BY created_ts DESC, id LIMIT $2`,
    [options.before ?? Number.MAX_SAFE_INTEGER, options.limit ?? 20, origin],
  );
  return summarise(db, jobs, prices);
}

export async function readJobReport(
  db: Queryable,
  jobId: string,
  prices: Prices,
  options: { afterSeq?: number; limit?: number } = {},
): Promise<JobReport | null> {
  const jobs = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM send_jobs WHERE id = $1`, [
    jobId,
  ]);
  if (!jobs[0]) return null;
  const [summary] = await summarise(db, jobs, prices);
  const limit = options.limit ?? 1000;
  const rows = await db.query<{
    seq: number;
    to_number: string;
    status: RecipientStatus;
    error_code: number | null;
    last_error: string | null;
    segments: number;
    attempts: number;
    sent_ts: number | null;
    status_ts: number | null;
    next_attempt_ts: number;
  }>(
    `SELECT seq, to_number, status, error_code, last_error, segments, attempts, sent_ts, status_ts,
            next_attempt_ts
     FROM send_recipients WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [jobId, options.afterSeq ?? 0, limit + 1],
  );
  const toNumber = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...summary!,
    recipients: rows.slice(0, limit).map((r) => ({
      seq: r.seq,
      to: r.to_number,
      status: r.status,
      errorCode: r.error_code,
      error: providerErrorMeaning(r.error_code) ?? r.last_error,
      segments: r.segments,
      attempts: r.attempts,
      sentAt: toNumber(r.sent_ts),
      statusAt: toNumber(r.status_ts),
      dueAt: Number(r.next_attempt_ts),
    })),
    more: rows.length > limit,
  };
}

/**
 * Cancels a job no recipient of which has been handed to the provider yet: its queued recipients
 * become cancelled. Only its creator or an owner may, and never a job the gateway queued itself
 * (an invitation, an alert): someone else's text is not an admin's to stop. Answers what happened
 * so the route can say why it refused.
 */
export async function cancelJob(
  db: Db,
  jobId: string,
  now: number,
  caller: { userId: string; owner: boolean },
): Promise<'cancelled' | 'not-found' | 'started' | 'system' | 'not-creator'> {
  return db.transaction(async (tx) => {
    const jobs = await tx.query<{ created_by: string; origin: JobOrigin }>(
      'SELECT created_by, origin FROM send_jobs WHERE id = $1 FOR UPDATE',
      [jobId],
    );
    const job = jobs[0];
    if (!job) return 'not-found';
    if (job.origin === 'system') return 'system';
    if (job.created_by !== caller.userId && !caller.owner) return 'not-creator';
    const started = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients
       WHERE job_id = $1 AND (attempts > 0 OR status NOT IN ('queued', 'cancelled')
         AND status NOT LIKE 'skipped-%')`,
      [jobId],
    );
    if ((started[0]?.n ?? 0) > 0) return 'started';
    await tx.query(
      `UPDATE send_recipients SET status = 'cancelled', status_ts = $2
       WHERE job_id = $1 AND status = 'queued'`,
      [jobId, now],
    );
    await tx.query('UPDATE send_jobs SET cancelled_ts = $2 WHERE id = $1', [jobId, now]);
    return 'cancelled';
  });
}

/**
 * How far along a recipient is. A callback moves a row only forward: delivered, undelivered and
 * failed are final (the provider sends one of them, once), so a late or replayed callback, or one
 * repeating the row's own status, changes nothing (callbacks are idempotent by message and status).
 */
const STATUS_RANK: Partial<Record<RecipientStatus, number>> = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
};

/** How many messages wait for the worker now (queued, or sent and not yet answered), by class. */
export async function countWaitingByClass(db: Queryable): Promise<Map<MessageClass, number>> {
  const rows = await db.query<{ message_class: MessageClass; n: number }>(
    `SELECT j.message_class, count(*)::int AS n
     FROM send_recipients r JOIN send_jobs j ON j.id = r.job_id
     WHERE r.status IN ('queued', 'sending') GROUP BY j.message_class`,
  );
  return new Map(rows.map((row) => [row.message_class, row.n]));
}

/**
 * Applies a provider's status report to the recipient it sent as `providerSid`. Returns false when
 * no recipient has that id (a message sent by something else, or a forged callback).
 */
export async function applyDeliveryStatus(
  db: Queryable,
  report: {
    providerSid: string;
    status: 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed';
    errorCode: number | null;
    now: number;
  },
): Promise<boolean> {
  const rank = STATUS_RANK[report.status] ?? 0;
  const earlier = Object.entries(STATUS_RANK)
    .filter(([, r]) => r !== undefined && r < rank)
    .map(([s]) => s);
  const moved = await db.query<{ to_number: string }>(
    `UPDATE send_recipients SET status = $2, error_code = COALESCE($3, error_code), status_ts = $4
     WHERE provider_sid = $1 AND status = ANY($5::text[]) RETURNING to_number`,
    [report.providerSid, report.status, report.errorCode, report.now, earlier],
  );
  if (moved.length === 0) {
    const known = await db.query('SELECT 1 FROM send_recipients WHERE provider_sid = $1 LIMIT 1', [
      report.providerSid,
    ]);
    return known.length > 0;
  }
  await rememberUndeliverable(
    db,
    moved.map((r) => ({ to: r.to_number, errorCode: report.errorCode })),
    report.now,
  );
  return true;
}

/** Provider codes that say a number will never take a text: skipped by later sends. */
const UNDELIVERABLE_CODES: Readonly<Record<number, 'landline' | 'invalid'>> = {
  30006: 'landline',
  21614: 'landline',
  30005: 'invalid',
  21211: 'invalid',
};

/** Remembers the numbers a provider called landlines or unknown, from these reports. */
export async function rememberUndeliverable(
  db: Queryable,
  reports: readonly { to: string; errorCode: number | null }[],
  now: number,
): Promise<void> {
  const known = reports.filter((r) => r.errorCode !== null && UNDELIVERABLE_CODES[r.errorCode]);
  if (known.length === 0) return;
  await db.query(
    `INSERT INTO undeliverable_numbers (phone_number, reason, error_code, reported_ts)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int8[])
     ON CONFLICT (phone_number) DO UPDATE
       SET reason = EXCLUDED.reason, error_code = EXCLUDED.error_code,
           reported_ts = EXCLUDED.reported_ts`,
    [
      known.map((r) => r.to),
      known.map((r) => UNDELIVERABLE_CODES[r.errorCode!]),
      known.map((r) => r.errorCode),
      known.map(() => now),
    ],
  );
}

export interface ClaimedRecipient {
  jobId: string;
  seq: number;
  to: string;
  /** Attempts made before this claim. */
  attempts: number;
  channel: Channel;
  body: string;
  template: unknown;
  content: RecipientContent | null;
  /** The recipient's region (their user row's), which gives their time zone. */
  region: string | null;
  segments: number;
  sender: string;
  quietHours: boolean;
  /** 0: codes and alerts, 1: invitations, 2: marketing (which takes only part of the pace). */
  lane: number;
  messageClass: MessageClass;
  /** When its job was queued (epoch ms). */
  queuedTs: number;
  /** Past this time (epoch ms, the worker's clock) the message is not sent but marked expired. */
  expiresTs: number | null;
  /** Set by the worker when the message goes out from another sender than the job's. */
  from?: string;
}

export type MessageClass = 'code' | 'alert' | 'invitation' | 'marketing';
export const MESSAGE_CLASSES: readonly MessageClass[] = [
  'code',
  'alert',
  'invitation',
  'marketing',
];

/** The lanes in the order the worker claims them (see migrations/018_message_lanes.ts). */
const LANES = [0, 1, 2] as const;
export const MARKETING_LANE = 2;

interface ClaimedRow {
  job_id: string;
  seq: number;
  to_number: string;
  attempts: number;
  channel: Channel;
  body: string;
  template: unknown;
  content: RecipientContent | null;
  region: string | null;
  segments: number;
  sender: string;
  quiet_hours: boolean;
  lane: number;
  message_class: MessageClass;
  queued_ts: number;
  expires_ts: string | null;
}

/** A recipient the worker may claim in `lane`: queued, or sending with its lease run out, due by $1. */
const dueInLane = (lane: string) =>
  `status IN ('queued', 'sending') AND lane = ${lane} AND next_attempt_ts <= $1`;

const ANY_DUE_SQL = `SELECT ${LANES.map(
  (lane) => `EXISTS (SELECT 1 FROM send_recipients WHERE ${dueInLane(String(lane))})`,
).join(' OR ')} AS due`;

/**
 * Whether any recipient is due, as `claimDueRecipients` would find one: one index probe a lane,
 * read outside a transaction. An idle worker asks this instead of opening a claim's transaction,
 * which on PGlite holds its one connection from every request until the HTTP thread ends it.
 */
export async function anyRecipientDue(db: Queryable, now: number): Promise<boolean> {
  const rows = await db.query<{ due: boolean }>(ANY_DUE_SQL, [now]);
  return rows[0]?.due === true;
}

// Lane by lane, each an index range: an alert queued behind 100,000 marketing recipients is
// claimed first, whatever its queue time. The lanes are appended in order under one LIMIT, which
// stops reading (and locking) as soon as it has enough: a lane is not read once earlier ones
// filled the batch. Each claimed row then looks its job up (OFFSET 0 keeps that a lookup per
// row: joined plainly, the planner without statistics scanned every job against the batch).
const CLAIM_LANES = LANES.map(
  // A lane is a subquery: FOR UPDATE may not stand directly in a UNION.
  (lane) => `SELECT * FROM (
         SELECT job_id, seq, to_number, attempts, body, variables, segments, lane
         FROM send_recipients
         WHERE ${dueInLane(String(lane))}
         ORDER BY lane, next_attempt_ts, job_id, seq
         LIMIT $2
         FOR UPDATE SKIP LOCKED) lane${lane}`,
).join(' UNION ALL ');
const CLAIM_SQL = `SELECT r.job_id, r.seq, r.to_number, r.attempts, j.channel,
          COALESCE(r.body, j.body) AS body, j.template, r.variables AS content, r.segments,
          j.sender, j.quiet_hours, r.lane, j.message_class, j.created_ts AS queued_ts,
          (SELECT e.expires_ts FROM send_job_expiry e WHERE e.job_id = r.job_id) AS expires_ts,
          (SELECT min(u.human_region) FROM users u WHERE u.phone_number = r.to_number) AS region
   FROM (${CLAIM_LANES} LIMIT $2) r
   CROSS JOIN LATERAL (
     SELECT channel, body, template, sender, quiet_hours, message_class, created_ts
     FROM send_jobs WHERE id = r.job_id
     OFFSET 0
   ) j`;

/**
 * Locks up to `limit` recipients that are due: queued ones whose retry time has come and 'sending'
 * ones whose lease ran out (their process died). SKIP LOCKED lets several workers claim side by
 * side without ever taking the same row; call inside a transaction, which holds the locks.
 */
export async function claimDueRecipients(
  tx: Queryable,
  limit: number,
  now: number,
): Promise<ClaimedRecipient[]> {
  // Without statistics (a big job just landed; PGlite never auto-analyzes) the planner would sort
  // every due row for each batch; this keeps it on the index, which is already in claim order.
  // Nothing else in the query may sort: a disabled sort costs the plan 10^10, and PostgreSQL would
  // then JIT-compile every claim (about a second each). The region is min(), not ORDER BY … LIMIT 1.
  // Likewise the recipients' updates later in the transaction: one primary-key lookup per row, not
  // a hash of the whole table (about 130 ms a batch at 100,000 rows).
  // The settings (set_config's third argument is SET LOCAL) and the claim are asked together, and
  // the lanes are one statement: on PGlite every round trip of a transaction holds its one
  // connection while this thread gets round to the next statement.
  const settings = tx.query(
    "SELECT set_config('enable_sort', 'off', true), set_config('enable_hashjoin', 'off', true)",
  );
  const claim = tx.query<ClaimedRow>(CLAIM_SQL, [now, limit]);
  const [, rows] = await Promise.all([settings, claim]);
  rows.sort((a, b) =>
    a.lane !== b.lane
      ? a.lane - b.lane
      : a.job_id === b.job_id
        ? a.seq - b.seq
        : a.job_id < b.job_id
          ? -1
          : 1,
  );
  return rows.map(
    (r): ClaimedRecipient => ({
      jobId: r.job_id,
      seq: r.seq,
      to: r.to_number,
      attempts: r.attempts,
      channel: r.channel,
      body: r.body,
      template: r.template,
      content: r.content,
      region: r.region,
      segments: r.segments,
      sender: r.sender,
      quietHours: r.quiet_hours,
      lane: r.lane,
      messageClass: r.message_class,
      queuedTs: Number(r.queued_ts),
      expiresTs: r.expires_ts === null ? null : Number(r.expires_ts),
    }),
  );
}

export interface RecipientUpdate {
  jobId: string;
  seq: number;
  status: RecipientStatus;
  /** When a queued row is due again, or when a 'sending' lease runs out. */
  nextAttemptTs: number;
  lastError: string | null;
  sentTs: number | null;
  /** Added to the row's attempt count. */
  addAttempts: number;
  /** The provider's id for the message, which its status callbacks name. */
  providerSid?: string | null;
  errorCode?: number | null;
}

/** Applies many recipients' new states in one statement. */
export async function updateRecipients(
  db: Queryable,
  updates: readonly RecipientUpdate[],
  now = Date.now(),
): Promise<void> {
  if (updates.length === 0) return;
  await db.query(
    `UPDATE send_recipients r
     SET status = u.status, next_attempt_ts = u.next_attempt_ts, last_error = u.last_error,
         sent_ts = COALESCE(u.sent_ts, r.sent_ts), attempts = r.attempts + u.add_attempts,
         provider_sid = COALESCE(u.provider_sid, r.provider_sid),
         error_code = COALESCE(u.error_code, r.error_code), status_ts = $10
     FROM unnest($1::text[], $2::int[], $3::text[], $4::int8[], $5::text[], $6::int8[], $7::int[],
                 $8::text[], $9::int[])
       AS u(job_id, seq, status, next_attempt_ts, last_error, sent_ts, add_attempts, provider_sid,
            error_code)
     WHERE r.job_id = u.job_id AND r.seq = u.seq`,
    [
      updates.map((u) => u.jobId),
      updates.map((u) => u.seq),
      updates.map((u) => u.status),
      updates.map((u) => u.nextAttemptTs),
      updates.map((u) => u.lastError),
      updates.map((u) => u.sentTs),
      updates.map((u) => u.addAttempts),
      updates.map((u) => u.providerSid ?? null),
      updates.map((u) => u.errorCode ?? null),
      now,
    ],
  );
}
