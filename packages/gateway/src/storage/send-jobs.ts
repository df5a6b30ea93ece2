// Send jobs and their recipients: created in one transaction with the request's answer (so a
// repeated Idempotency-Key replays it), then claimed by the worker in batches with SKIP LOCKED.
import type { Channel, SendResult } from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

export const RECIPIENT_STATUSES = [
  'queued',
  'sending',
  'sent',
  'failed',
  'skipped-opted-out',
  'skipped-invalid',
] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export interface NewSendJob {
  id: string;
  createdBy: string;
  idempotencyKey: string;
  requestHash: string;
  channel: Channel;
  body: string;
  template: unknown;
  createdTs: number;
}

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

/**
 * Creates a job with its recipients and the answer to the request, all in one transaction. The
 * job row comes first: a concurrent request with the same key waits on its unique index until this
 * one commits, then writes nothing and gets the stored answer. Numbers that opted out are recorded
 * skipped-opted-out; `answer` is given them (in request order) to build the reply that is stored.
 */
export async function createSendJob(
  db: Db,
  job: NewSendJob,
  recipients: readonly string[],
  answer: (optedOut: string[]) => { status: number; body: SendResult },
): Promise<
  { created: true; status: number; body: SendResult } | { created: false; existing: StoredAnswer }
> {
  return db.transaction(async (tx) => {
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO send_jobs (id, created_by, idempotency_key, request_hash, channel, body, template,
         response_status, response_body, created_ts)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 0, 'null'::jsonb, $8)
       ON CONFLICT (created_by, idempotency_key) DO NOTHING RETURNING id`,
      [
        job.id,
        job.createdBy,
        job.idempotencyKey,
        job.requestHash,
        job.channel,
        job.body,
        job.template === undefined || job.template === null ? null : JSON.stringify(job.template),
        job.createdTs,
      ],
    );
    if (inserted.length === 0) {
      const existing = await findJobByIdempotencyKey(tx, job.createdBy, job.idempotencyKey);
      if (!existing) throw new Error('send job vanished after an idempotency-key conflict');
      return { created: false as const, existing };
    }
    // One pass over the numbers: each row's status comes from a join with opt_outs.
    const optedOut = await tx.query<{ to_number: string }>(
      `WITH written AS (
         INSERT INTO send_recipients (job_id, seq, to_number, status, next_attempt_ts)
         SELECT $1, t.seq, t.to_number,
                CASE WHEN o.phone_number IS NULL THEN 'queued' ELSE 'skipped-opted-out' END, $2
         FROM unnest($3::text[]) WITH ORDINALITY AS t(to_number, seq)
         LEFT JOIN opt_outs o ON o.phone_number = t.to_number
         RETURNING seq, to_number, status
       )
       SELECT to_number FROM written WHERE status = 'skipped-opted-out' ORDER BY seq`,
      [job.id, job.createdTs, recipients],
    );
    const reply = answer(optedOut.map((r) => r.to_number));
    await tx.query(
      'UPDATE send_jobs SET response_status = $2, response_body = $3::jsonb WHERE id = $1',
      [job.id, reply.status, JSON.stringify(reply.body)],
    );
    return { created: true as const, ...reply };
  });
}

export interface JobProgress {
  jobId: string;
  channel: Channel;
  createdAt: number;
  total: number;
  counts: Record<RecipientStatus, number>;
  /** True once no recipient is queued or being sent. */
  done: boolean;
}

export async function readJobProgress(db: Queryable, jobId: string): Promise<JobProgress | null> {
  const jobs = await db.query<{ id: string; channel: Channel; created_ts: number }>(
    'SELECT id, channel, created_ts FROM send_jobs WHERE id = $1',
    [jobId],
  );
  const job = jobs[0];
  if (!job) return null;
  const rows = await db.query<{ status: RecipientStatus; n: number }>(
    'SELECT status, count(*)::int AS n FROM send_recipients WHERE job_id = $1 GROUP BY status',
    [jobId],
  );
  const counts = Object.fromEntries(RECIPIENT_STATUSES.map((s) => [s, 0])) as Record<
    RecipientStatus,
    number
  >;
  for (const row of rows) counts[row.status] = row.n;
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  return {
    jobId: job.id,
    channel: job.channel,
    createdAt: job.created_ts,
    total,
    counts,
    done: counts.queued === 0 && counts.sending === 0,
  };
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
}

interface ClaimedRow {
  job_id: string;
  seq: number;
  to_number: string;
  attempts: number;
  channel: Channel;
  body: string;
  template: unknown;
}

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
  await tx.query('SET LOCAL enable_sort = off');
  const rows = await tx.query<ClaimedRow>(
    `SELECT r.job_id, r.seq, r.to_number, r.attempts, j.channel, j.body, j.template
     FROM (
       SELECT job_id, seq, to_number, attempts FROM send_recipients
       WHERE status IN ('queued', 'sending') AND next_attempt_ts <= $1
       ORDER BY next_attempt_ts, job_id, seq
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     ) r
     JOIN send_jobs j ON j.id = r.job_id`,
    [now, limit],
  );
  rows.sort((a, b) => (a.job_id === b.job_id ? a.seq - b.seq : a.job_id < b.job_id ? -1 : 1));
  return rows.map(
    (r): ClaimedRecipient => ({
      jobId: r.job_id,
      seq: r.seq,
      to: r.to_number,
      attempts: r.attempts,
      channel: r.channel,
      body: r.body,
      template: r.template,
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
}

/** Applies many recipients' new states in one statement. */
export async function updateRecipients(
  db: Queryable,
  updates: readonly RecipientUpdate[],
): Promise<void> {
  if (updates.length === 0) return;
  await db.query(
    `UPDATE send_recipients r
     SET status = u.status, next_attempt_ts = u.next_attempt_ts, last_error = u.last_error,
         sent_ts = u.sent_ts, attempts = r.attempts + u.add_attempts
     FROM unnest($1::text[], $2::int[], $3::text[], $4::int8[], $5::text[], $6::int8[], $7::int[])
       AS u(job_id, seq, status, next_attempt_ts, last_error, sent_ts, add_attempts)
     WHERE r.job_id = u.job_id AND r.seq = u.seq`,
    [
      updates.map((u) => u.jobId),
      updates.map((u) => u.seq),
      updates.map((u) => u.status),
      updates.map((u) => u.nextAttemptTs),
      updates.map((u) => u.lastError),
      updates.map((u) => u.sentTs),
      updates.map((u) => u.addAttempts),
    ],
  );
}
