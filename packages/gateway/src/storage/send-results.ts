// Each admin send's results for the Sends page. A send whose recipients are all final and whose
// opt-out week has passed cannot change any more: its results are counted once and kept in
// send_job_results, so weeks of 100,000-recipient sends are read as one row each. Newer sends are
// counted live.
import type { Queryable } from './db.js';

export const OPT_OUT_WINDOW_MS = 7 * 86_400_000;

export interface JobResults {
  recipients: number;
  delivered: number;
  failed: number;
  failedByReason: Record<string, number>;
  optedOut: number;
  /** Recipients and segments the provider accepted (what is paid for). */
  billable: number;
  segments: number;
  final: boolean;
}

export interface ResultJob {
  id: string;
  channel: 'sms' | 'whatsapp';
  body: string;
  createdTs: number;
}

/** The admin sends created since `sinceTs`, newest first. */
export async function listResultJobs(db: Queryable, sinceTs: number): Promise<ResultJob[]> {
  const rows = await db.query<{
    id: string;
    channel: 'sms' | 'whatsapp';
    body: string;
    created_ts: number;
  }>(
    `SELECT id, channel, body, created_ts FROM send_jobs
     WHERE origin = 'admin' AND created_ts >= $1 ORDER BY created_ts DESC, id`,
    [sinceTs],
  );
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    body: r.body,
    createdTs: Number(r.created_ts),
  }));
}

/** Results of `jobIds`: kept ones read, the others counted (and kept once they are final). */
export async function readJobResults(
  db: Queryable,
  jobIds: readonly string[],
  now: number,
): Promise<Map<string, JobResults>> {
  const results = new Map<string, JobResults>();
  if (jobIds.length === 0) return results;
  const kept = await db.query<{
    job_id: string;
    recipients: number;
    delivered: number;
    failed: number;
    failed_by_reason: Record<string, number>;
    opted_out: number;
    billable: number;
    segments: number;
  }>('SELECT * FROM send_job_results WHERE job_id = ANY($1::text[])', [jobIds]);
  for (const r of kept) {
    results.set(r.job_id, {
      recipients: r.recipients,
      delivered: r.delivered,
      failed: r.failed,
      failedByReason: r.failed_by_reason,
      optedOut: r.opted_out,
      billable: r.billable,
      segments: r.segments,
      final: true,
    });
  }
  const missing = jobIds.filter((id) => !results.has(id));
  if (missing.length === 0) return results;
  const counted = await countJobResults(db, missing, now);
  for (const [id, r] of counted) {
    results.set(id, r);
    if (!r.final) continue;
    await db.query(
      `INSERT INTO send_job_results (job_id, computed_ts, recipients, delivered, failed,
         failed_by_reason, opted_out, billable, segments)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9) ON CONFLICT (job_id) DO NOTHING`,
      [
        id,
        now,
        r.recipients,
        r.delivered,
        r.failed,
        JSON.stringify(r.failedByReason),
        r.optedOut,
        r.billable,
        r.segments,
      ],
    );
  }
  return results;
}

async function countJobResults(
  db: Queryable,
  jobIds: readonly string[],
  now: number,
): Promise<Map<string, JobResults>> {
  const [totals, reasons] = await Promise.all([
    db.query<{
      job_id: string;
      recipients: number;
      delivered: number;
      failed: number;
      opted_out: number;
      billable: number;
      segments: number;
      open: number;
      last_sent: number | null;
    }>(
      `SELECT r.job_id,
              count(*)::int AS recipients,
              count(*) FILTER (WHERE r.status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE r.status IN ('failed', 'undelivered'))::int AS failed,
              count(o.phone_number) FILTER (
                WHERE o.opted_out_ts >= r.sent_ts AND o.opted_out_ts < r.sent_ts + $2::int8
              )::int AS opted_out,
              count(*) FILTER (WHERE r.status IN ('sent', 'delivered', 'undelivered'))::int AS billable,
              COALESCE(sum(r.segments) FILTER (
                WHERE r.status IN ('sent', 'delivered', 'undelivered')), 0)::int AS segments,
              count(*) FILTER (WHERE r.status IN ('queued', 'sending', 'sent'))::int AS open,
              max(r.sent_ts) AS last_sent
       FROM send_recipients r LEFT JOIN opt_outs o ON o.phone_number = r.to_number
       WHERE r.job_id = ANY($1::text[])
       GROUP BY r.job_id`,
      [jobIds, OPT_OUT_WINDOW_MS],
    ),
    db.query<{ job_id: string; reason: string; n: number }>(
      `SELECT job_id, COALESCE(error_code::text, status) AS reason, count(*)::int AS n
       FROM send_recipients
       WHERE job_id = ANY($1::text[]) AND status IN ('failed', 'undelivered')
       GROUP BY 1, 2`,
      [jobIds],
    ),
  ]);
  const results = new Map<string, JobResults>();
  for (const id of jobIds) {
    const t = totals.find((r) => r.job_id === id);
    const lastSent =
      t?.last_sent === null || t?.last_sent === undefined ? null : Number(t.last_sent);
    const failedByReason: Record<string, number> = {};
    for (const r of reasons) if (r.job_id === id) failedByReason[r.reason] = r.n;
    results.set(id, {
      recipients: t?.recipients ?? 0,
      delivered: t?.delivered ?? 0,
      failed: t?.failed ?? 0,
      failedByReason,
      optedOut: t?.opted_out ?? 0,
      billable: t?.billable ?? 0,
      segments: t?.segments ?? 0,
      final: (t?.open ?? 0) === 0 && (lastSent === null || lastSent + OPT_OUT_WINDOW_MS <= now),
    });
  }
  return results;
}
