// Creating send jobs, both kinds through one recipient insert. The service's own texts (invitations,
// alerts) are one job per request, and a repeated key replays the stored answer. For an admin's
// send the Idempotency-Key names the job: a request under a key already used adds only the numbers
// the job does not have yet (recipients are unique per job), so a re-run never texts anyone twice
// and a larger audience is one job created in parts. The job keeps its content, and a key reused
// for other content is refused.

import type { ApprovalReason, SendResult } from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';
import { type MarketingRules, skipStateSql } from './recipient-skips.js';
import { HELD_TS, isAwaitingApproval, requestApproval } from './send-approvals.js';
import {
  findJobByIdempotencyKey,
  type NewRecipients,
  type NewSendJob,
  type RecipientStatus,
  type SkipReason,
  type StoredAnswer,
} from './send-jobs.js';
import { createRecipientLinks } from './send-links.js';

/** A job found by its key: enough to tell a re-run from another send, and what it already has. */
export interface KeyedJob {
  id: string;
  requestHash: string;
  /** The content as stored (null for jobs older than content fingerprints). */
  content: unknown;
  cancelled: boolean;
}

export async function findKeyedJob(
  db: Queryable,
  createdBy: string,
  idempotencyKey: string,
  options: { lock?: boolean } = {},
): Promise<KeyedJob | null> {
  const rows = await db.query<{
    id: string;
    request_hash: string;
    content: unknown;
    cancelled_ts: number | null;
  }>(
    `SELECT id, request_hash, content, cancelled_ts FROM send_jobs
     WHERE created_by = $1 AND idempotency_key = $2${options.lock ? ' FOR UPDATE' : ''}`,
    [createdBy, idempotencyKey],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        requestHash: row.request_hash,
        content: row.content,
        cancelled: row.cancelled_ts !== null,
      }
    : null;
}

/** Which of `numbers` the job already has (in any state, skipped ones included). */
export async function findJobNumbers(
  db: Queryable,
  jobId: string,
  numbers: readonly string[],
): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db.query<{ to_number: string }>(
    `SELECT e.to_number FROM send_recipients e
     JOIN unnest($2::text[]) AS n(to_number) ON n.to_number = e.to_number
     WHERE e.job_id = $1`,
    [jobId, numbers],
  );
  return new Set(rows.map((r) => r.to_number));
}

export type AddOutcome =
  | {
      kind: 'added';
      jobId: string;
      created: boolean;
      /** Rows written by this call, in request order. */
      added: { number: string; status: RecipientStatus }[];
      /** The job waits for another admin's approval: its recipients are held. */
      held: boolean;
    }
  /** The key names a job with other content: nothing was written. */
  | { kind: 'other-content'; existing: KeyedJob }
  | { kind: 'cancelled'; existing: KeyedJob };

/**
 * Creates the job named by `job.idempotencyKey` with these recipients, or adds to it those it does
 * not have. One transaction: the job row is inserted or locked first, so concurrent requests under
 * one key wait for each other, and each then leaves out the numbers the job already has.
 * Opted-out numbers, known landlines and those marketing's `rules` leave out are written skipped
 * with their reason. `links`: the addresses of a marketing SMS, each given a short code per
 * recipient that will be sent (not the skipped), in the same transaction.
 */
export async function createOrExtendSendJob(
  db: Db,
  job: NewSendJob & { content: unknown; links?: readonly string[] },
  recipients: NewRecipients,
  rules: MarketingRules | null,
  firstAnswer: (added: { number: string; status: RecipientStatus }[]) => unknown,
  /** Why a new job must wait for approval, or null when it need not. */
  approval: ApprovalReason | null = null,
): Promise<AddOutcome> {
  return db.transaction(async (tx) => {
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO send_jobs (id, created_by, idempotency_key, request_hash, channel, body, template,
         response_status, response_body, created_ts, send_at_ts, sender, quiet_hours, origin,
         content)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 202, 'null'::jsonb, $8, $9, $10, $11, 'admin',
         $12::jsonb)
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
        job.sendAtTs ?? null,
        job.sender,
        job.quietHours ?? true,
        JSON.stringify(job.content),
      ],
    );
    let jobId = job.id;
    let dueTs = job.sendAtTs ?? job.createdTs;
    const created = inserted.length > 0;
    if (!created) {
      const existing = await findKeyedJob(tx, job.createdBy, job.idempotencyKey, { lock: true });
      if (!existing) throw new Error('send job vanished after an idempotency-key conflict');
      if (existing.requestHash !== job.requestHash) return { kind: 'other-content', existing };
      if (existing.cancelled) return { kind: 'cancelled', existing };
      jobId = existing.id;
      const [row] = await tx.query<{ send_at_ts: number | null }>(
        'SELECT send_at_ts FROM send_jobs WHERE id = $1',
        [jobId],
      );
      dueTs = Math.max(Number(row?.send_at_ts ?? 0), job.createdTs);
    }
    // A job waiting for approval holds every recipient, those added to it later too.
    const held = created ? approval !== null : await isAwaitingApproval(tx, jobId);
    if (created && approval !== null) {
      await requestApproval(tx, {
        jobId,
        reason: approval,
        requestedBy: job.createdBy,
        now: job.createdTs,
        releaseTs: dueTs,
      });
    }
    const added = await insertRecipients(
      tx,
      jobId,
      held ? HELD_TS : dueTs,
      recipients,
      rules,
      created,
    );
    if (job.links && job.links.length > 0) {
      const sendable = added.filter((r) => skipReasonOf(r.status) === null).map((r) => r.seq);
      await createRecipientLinks(tx, jobId, sendable, job.links);
    }
    if (created) {
      await tx.query('UPDATE send_jobs SET response_body = $2::jsonb WHERE id = $1', [
        jobId,
        JSON.stringify(firstAnswer(added)),
      ]);
    }
    return { kind: 'added', jobId, created, added, held };
  });
}

/**
 * Creates a job with its recipients and the answer to the request, all in one transaction. The
 * job row comes first: a concurrent request with the same key waits on its unique index until this
 * one commits, then writes nothing and gets the stored answer. Numbers that opted out, or that a
 * provider reported as landlines or unknown, are recorded skipped; `answer` is given every skipped
 * number (in request order, with its reason) to build the reply that is stored.
 */
export async function createSendJob(
  db: Db,
  job: NewSendJob,
  recipients: NewRecipients,
  answer: (skipped: { number: string; reason: SkipReason }[]) => {
    status: number;
    body: SendResult;
  },
): Promise<
  { created: true; status: number; body: SendResult } | { created: false; existing: StoredAnswer }
> {
  return db.transaction(async (tx) => {
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO send_jobs (id, created_by, idempotency_key, request_hash, channel, body, template,
         response_status, response_body, created_ts, send_at_ts, sender, quiet_hours, origin)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 0, 'null'::jsonb, $8, $9, $10, $11, $12)
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
        job.sendAtTs ?? null,
        job.sender,
        job.quietHours ?? true,
        job.origin ?? 'admin',
      ],
    );
    if (inserted.length === 0) {
      const existing = await findJobByIdempotencyKey(tx, job.createdBy, job.idempotencyKey);
      if (!existing) throw new Error('send job vanished after an idempotency-key conflict');
      return { created: false as const, existing };
    }
    const written = await insertRecipients(
      tx,
      job.id,
      job.sendAtTs ?? job.createdTs,
      recipients,
      null,
      true,
    );
    const reply = answer(
      written.flatMap((r) => {
        const reason = skipReasonOf(r.status);
        return reason === null ? [] : [{ number: r.number, reason }];
      }),
    );
    await tx.query(
      'UPDATE send_jobs SET response_status = $2, response_body = $3::jsonb WHERE id = $1',
      [job.id, reply.status, JSON.stringify(reply.body)],
    );
    return { created: true as const, ...reply };
  });
}

/**
 * Appends recipients after the job's last seq, numbered without gaps; a number the job already
 * has, or one given twice, is written once. `created`: the job was inserted in this transaction,
 * so it has no recipients yet. A job's numbers are kept unique here, not by an index (which cost
 * about a third of a 100,000-recipient insert): the caller holds the job row, inserted or locked
 * in this transaction, so no other request adds to the job until it commits.
 */
async function insertRecipients(
  tx: Queryable,
  jobId: string,
  dueTs: number,
  recipients: NewRecipients,
  rules: MarketingRules | null,
  created: boolean,
): Promise<{ seq: number; number: string; status: RecipientStatus }[]> {
  if (recipients.to.length === 0) return [];
  // A new job's numbers, each once, cannot meet one the job has: they go in as given. Otherwise
  // each number's first place is kept and those the job has are left out before numbering.
  const plain = created && new Set(recipients.to).size === recipients.to.length;
  const [last] = created
    ? [{ seq: 0 }]
    : await tx.query<{ seq: number }>(
        'SELECT COALESCE(max(seq), 0)::int AS seq FROM send_recipients WHERE job_id = $1',
        [jobId],
      );
  // Only the columns that vary are sent as arrays (a plain SMS sends just the numbers): each
  // 100,000-element array costs the database time to parse.
  const params: unknown[] = [jobId, dueTs, recipients.to, last?.seq ?? 0];
  const arrays = ['$3::text[]'];
  const names = ['to_number'];
  const column = (name: string, type: string, values: unknown[] | undefined): string => {
    if (values === undefined) return 'NULL';
    params.push(values);
    arrays.push(`$${params.length}::${type}[]`);
    names.push(name);
    return `t.${name}`;
  };
  const segments = recipients.segments;
  const sameSegments = !segments || segments.every((n) => n === segments[0]);
  const skip = column(
    'skip',
    'text',
    recipients.skip?.some((v) => v !== null) ? recipients.skip : undefined,
  );
  const body = column('body', 'text', recipients.body);
  const variables = column(
    'variables',
    'text',
    recipients.content?.map((v) => (v === null ? null : JSON.stringify(v))),
  );
  const timeZone = column('time_zone', 'text', recipients.timeZone);
  const due = recipients.due
    ? `COALESCE(${column('due', 'bigint', recipients.due)}, $2::bigint)`
    : '$2::bigint';
  const { state, joins } = skipStateSql(params, rules, due);
  const segmentsSql = sameSegments
    ? String(Math.trunc(segments?.[0] ?? 1))
    : column('segments', 'int', segments);
  // The rows written come back as one text, not as a row each: PGlite builds each returned row's
  // object slowly, and for 100,000 recipients that took 1.3 s of the request's 3.4 s. A new job's
  // is `seq state` pairs (no value from outside), a row's number being the request's own at its
  // position; rows left out break that, so otherwise the numbers come back too, as JSON.
  const base = last?.seq ?? 0;
  const given = `unnest(${arrays.join(', ')}) WITH ORDINALITY AS t(${names.join(', ')}, seq)`;
  const source = plain
    ? given
    : `(SELECT k.* FROM (
          SELECT t.*, row_number() OVER (PARTITION BY t.to_number ORDER BY t.seq) AS nth
          FROM ${given}
        ) k
        WHERE k.nth = 1
          AND NOT EXISTS (SELECT 1 FROM send_recipients e
                          WHERE e.job_id = $1 AND e.to_number = k.to_number)) t`;
  const [written] = await tx.query<{ added: string | null }>(
    `WITH added AS (
       INSERT INTO send_recipients (job_id, seq, to_number, status, next_attempt_ts, body,
         variables, time_zone, segments)
       SELECT $1, $4::int + ${plain ? 't.seq' : 'row_number() OVER (ORDER BY t.seq)'},
              t.to_number, CASE WHEN ${skip} IS NOT NULL THEN ${skip} ELSE ${state} END,
              ${due}, ${body}, ${variables}::jsonb, ${timeZone}, ${segmentsSql}
       FROM ${source}
       ${joins}
       RETURNING seq, status, to_number
     ) SELECT ${plain ? "string_agg(seq::text || ' ' || status, ',')" : 'json_agg(json_build_array(seq, status, to_number))::text'}
         AS added FROM added`,
    params,
  );
  if (!written?.added) return [];
  const added = plain
    ? written.added.split(',').map((pair) => {
        const space = pair.indexOf(' ');
        const seq = Number(pair.slice(0, space));
        return {
          seq,
          number: recipients.to[seq - base - 1]!,
          status: pair.slice(space + 1) as RecipientStatus,
        };
      })
    : (JSON.parse(written.added) as [number, RecipientStatus, string][]).map(
        ([seq, status, number]) => ({ seq, number, status }),
      );
  return added.sort((a, b) => a.seq - b.seq);
}

/** A skipped row's reason as answers name it. */
export function skipReasonOf(status: RecipientStatus): SkipReason | null {
  return status.startsWith('skipped-') ? (status.slice('skipped-'.length) as SkipReason) : null;
}
