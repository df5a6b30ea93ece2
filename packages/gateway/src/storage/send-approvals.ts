// Sends that wait for a second admin. A held job's queued recipients are due at HELD_TS, which no
// claim reaches, so the worker needs no rule of its own; approving makes them due at the job's own
// time (or now), rejecting cancels them. One row per job: requested once, decided once.
import type { ApprovalReason } from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

/** Later than any clock: a recipient due then is never claimed. */
export const HELD_TS = 8_000_000_000_000_000;

export type ApprovalStatus = 'pending' | 'approved' | 'rejected';

export interface ApprovalRow {
  job_id: string;
  status: ApprovalStatus;
  reason: ApprovalReason;
  requested_by: string;
  requested_ts: number;
  release_ts: number;
  decided_by: string | null;
  decided_ts: number | null;
  note: string | null;
}

/** Records that `jobId` waits for approval; call in the transaction that holds its recipients. */
export async function requestApproval(
  tx: Queryable,
  request: {
    jobId: string;
    reason: ApprovalReason;
    requestedBy: string;
    now: number;
    releaseTs: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO send_approvals (job_id, status, reason, requested_by, requested_ts, release_ts)
     VALUES ($1, 'pending', $2, $3, $4, $5) ON CONFLICT (job_id) DO NOTHING`,
    [request.jobId, request.reason, request.requestedBy, request.now, request.releaseTs],
  );
}

/** Whether the job waits for approval now (recipients added to it then wait too). */
export async function isAwaitingApproval(tx: Queryable, jobId: string): Promise<boolean> {
  const rows = await tx.query(
    "SELECT 1 FROM send_approvals WHERE job_id = $1 AND status = 'pending'",
    [jobId],
  );
  return rows.length > 0;
}

export async function findApprovals(
  db: Queryable,
  jobIds: readonly string[],
): Promise<Map<string, ApprovalRow>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db.query<ApprovalRow>(
    'SELECT * FROM send_approvals WHERE job_id = ANY($1::text[])',
    [jobIds],
  );
  return new Map(rows.map((r) => [r.job_id, normalise(r)]));
}

export async function listPendingApprovals(db: Queryable, limit: number): Promise<ApprovalRow[]> {
  const rows = await db.query<ApprovalRow>(
    `SELECT a.* FROM send_approvals a JOIN send_jobs j ON j.id = a.job_id
     WHERE a.status = 'pending' AND j.cancelled_ts IS NULL
     ORDER BY a.requested_ts, a.job_id LIMIT $1`,
    [limit],
  );
  return rows.map(normalise);
}

export type Decision = 'approved' | 'rejected';

/**
 * Approves or rejects a waiting send for `decider`. The row is locked first, so two admins deciding
 * at once see one decision, and the second is told it was already decided. The requester may not
 * decide their own send either way (a rejection is a cancel they have already).
 */
export async function decideApproval(
  db: Db,
  input: { jobId: string; decision: Decision; decidedBy: string; note: string | null; now: number },
): Promise<'decided' | 'not-found' | 'own' | 'already-decided'> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<ApprovalRow>(
      'SELECT * FROM send_approvals WHERE job_id = $1 FOR UPDATE',
      [input.jobId],
    );
    if (!row) return 'not-found';
    const [job] = await tx.query<{ cancelled_ts: number | null }>(
      'SELECT cancelled_ts FROM send_jobs WHERE id = $1',
      [input.jobId],
    );
    // Cancelled by its requester while it waited: nothing is left to decide.
    if (row.status !== 'pending' || job?.cancelled_ts != null) return 'already-decided';
    if (row.requested_by === input.decidedBy) return 'own';
    await tx.query(
      `UPDATE send_approvals SET status = $2, decided_by = $3, decided_ts = $4, note = $5
       WHERE job_id = $1`,
      [input.jobId, input.decision, input.decidedBy, input.now, input.note],
    );
    if (input.decision === 'approved') {
      await tx.query(
        `UPDATE send_recipients SET next_attempt_ts = GREATEST($2::int8, $3::int8)
         WHERE job_id = $1 AND status = 'queued' AND next_attempt_ts >= $4`,
        [input.jobId, Number(row.release_ts), input.now, HELD_TS],
      );
    } else {
      await tx.query(
        `UPDATE send_recipients SET status = 'cancelled', status_ts = $2
         WHERE job_id = $1 AND status = 'queued'`,
        [input.jobId, input.now],
      );
      await tx.query('UPDATE send_jobs SET cancelled_ts = $2 WHERE id = $1', [
        input.jobId,
        input.now,
      ]);
    }
    return 'decided';
  });
}

/** The approval threshold an owner set, or null while none has. */
export async function readApprovalThreshold(db: Queryable): Promise<number | null> {
  const [row] = await db.query<{ value: unknown }>(
    "SELECT value FROM admin_settings WHERE name = 'approvalThreshold'",
  );
  return typeof row?.value === 'number' ? row.value : null;
}

export async function writeApprovalThreshold(
  db: Queryable,
  value: number,
  changedBy: string,
  now: number,
): Promise<void> {
  await db.query(
    `INSERT INTO admin_settings (name, value, changed_by, changed_ts)
     VALUES ('approvalThreshold', $1::jsonb, $2, $3)
     ON CONFLICT (name) DO UPDATE SET value = $1::jsonb, changed_by = $2, changed_ts = $3`,
    [JSON.stringify(value), changedBy, now],
  );
}

function normalise(row: ApprovalRow): ApprovalRow {
  return {
    ...row,
    requested_ts: Number(row.requested_ts),
    release_ts: Number(row.release_ts),
    decided_ts: row.decided_ts === null ? null : Number(row.decided_ts),
  };
}

export interface ApprovalReview {
  jobId: string;
  channel: 'sms' | 'whatsapp';
  body: string;
  templateName: string | null;
  sendAtTs: number | null;
  requester: { id: string; name: string; phoneNumber: string };
  /** Recipients that will be sent once approved, and their SMS segments. */
  queued: number;
  segments: number;
  first: { to: string; text: string } | null;
}

/** What an approver reviews of each job: who asked, the message, the count, the schedule. */
export async function readApprovalReviews(
  db: Queryable,
  jobIds: readonly string[],
): Promise<ApprovalReview[]> {
  if (jobIds.length === 0) return [];
  const rows = await db.query<{
    id: string;
    channel: 'sms' | 'whatsapp';
    body: string;
    template: { name?: string } | null;
    send_at_ts: number | null;
    created_by: string;
    name: string | null;
    phone_number: string | null;
    queued: number;
    segments: number;
    first_to: string | null;
    first_text: string | null;
  }>(
    `SELECT j.id, j.channel, j.body, j.template, j.send_at_ts, j.created_by, u.name, u.phone_number,
            q.queued, q.segments, f.to_number AS first_to, f.text AS first_text
     FROM send_jobs j
     LEFT JOIN users u ON u.id = j.created_by
     CROSS JOIN LATERAL (
       SELECT count(*)::int AS queued, COALESCE(sum(segments), 0)::int AS segments
       FROM send_recipients WHERE job_id = j.id AND status = 'queued'
     ) q
     LEFT JOIN LATERAL (
       SELECT r.to_number, COALESCE(r.body, j.body) AS text FROM send_recipients r
       WHERE r.job_id = j.id AND r.status = 'queued' ORDER BY r.seq LIMIT 1
     ) f ON true
     WHERE j.id = ANY($1::text[])`,
    [jobIds],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return jobIds.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        jobId: r.id,
        channel: r.channel,
        body: r.body,
        templateName: r.template?.name ?? null,
        sendAtTs: r.send_at_ts === null ? null : Number(r.send_at_ts),
        requester: { id: r.created_by, name: r.name ?? '', phoneNumber: r.phone_number ?? '' },
        queued: r.queued,
        segments: r.segments,
        first: r.first_to === null ? null : { to: r.first_to, text: r.first_text ?? '' },
      },
    ];
  });
}
