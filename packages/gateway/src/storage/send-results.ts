// Each admin send's results for the Sends page. A send whose recipients are all final and whose
// opt-out week has passed cannot change its delivery figures any more: they are counted once and kept
// in send_job_results, so weeks of 100,000-recipient sends are read as one row each. Newer sends are
// counted live. Its tracked links settle a week later: a click counts within 7 days of the
// recipient's text, and a payment within 7 days of their first click counts as the send's conversion
// (a renewal) with its amount (docs/product.md, 'Tracked links'). Until then a kept send's clicks,
// conversions and revenue are counted again on each read, from its opened links only (a few rows),
// and kept with it once they too are final.
import type { Queryable } from './db.js';
import { CLICK_WINDOW_MS } from './send-links.js';

export const OPT_OUT_WINDOW_MS = 7 * 86_400_000;
/** How long after a click a payment counts as the send's conversion. */
const CONVERSION_WINDOW_MS = 7 * 86_400_000;
/** After the last text went out, when its links' figures cannot change any more. */
const LINKS_SETTLED_MS = CLICK_WINDOW_MS + CONVERSION_WINDOW_MS;

export interface JobResults {
  recipients: number;
  delivered: number;
  failed: number;
  failedByReason: Record<string, number>;
  optedOut: number;
  /** Recipients who opened a tracked link in the click window. */
  clicks: number;
  /** Of those, the ones who paid within the conversion window after their first click. */
  conversions: number;
  /** Those first payments' sum, in cents. */
  revenueCents: number;
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

/**
 * Results of `jobIds`: kept ones read (their links counted again until those settle), the others
 * counted, and kept once their delivery figures are final.
 */
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
    clicks: number;
    conversions: number;
    revenue_cents: string;
    billable: number;
    segments: number;
    links_final: boolean;
    last_sent_ts: string | null;
  }>('SELECT * FROM send_job_results WHERE job_id = ANY($1::text[])', [jobIds]);
  const unsettled = kept.filter((r) => !r.links_final).map((r) => r.job_id);
  const recounted = await countLinks(db, unsettled);
  for (const r of kept) {
    const links = r.links_final
      ? { clicks: r.clicks, conversions: r.conversions, revenueCents: Number(r.revenue_cents) }
      : (recounted.get(r.job_id) ?? NO_LINKS);
    const lastSent = r.last_sent_ts === null ? null : Number(r.last_sent_ts);
    const final = r.links_final || lastSent === null || lastSent + LINKS_SETTLED_MS <= now;
    results.set(r.job_id, {
      recipients: r.recipients,
      delivered: r.delivered,
      failed: r.failed,
      failedByReason: r.failed_by_reason,
      optedOut: r.opted_out,
      ...links,
      billable: r.billable,
      segments: r.segments,
      final,
    });
    if (final && !r.links_final) {
      await db.query(
        `UPDATE send_job_results SET clicks = $2, conversions = $3, revenue_cents = $4,
           links_final = true
         WHERE job_id = $1`,
        [r.job_id, links.clicks, links.conversions, links.revenueCents],
      );
    }
  }
  const missing = jobIds.filter((id) => !results.has(id));
  if (missing.length === 0) return results;
  const counted = await countJobResults(db, missing, now);
  for (const [id, { lastSent, deliveryFinal, ...r }] of counted) {
    results.set(id, r);
    if (!deliveryFinal) continue;
    await db.query(
      `INSERT INTO send_job_results (job_id, computed_ts, recipients, delivered, failed,
         failed_by_reason, opted_out, billable, segments, clicks, conversions, revenue_cents,
         links_final, last_sent_ts)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (job_id) DO NOTHING`,
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
        r.clicks,
        r.conversions,
        r.revenueCents,
        r.final,
        lastSent,
      ],
    );
  }
  return results;
}

const NO_LINKS = { clicks: 0, conversions: 0, revenueCents: 0 };

/**
 * Each send's clicks, conversions and revenue, from its opened links only (their partial index): a
 * recipient's first payment in the window after their first click is the conversion (one a send,
 * however many of its links they opened).
 */
async function countLinks(
  db: Queryable,
  jobIds: readonly string[],
): Promise<Map<string, typeof NO_LINKS>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db.query<{
    job_id: string;
    clicks: number;
    conversions: number;
    revenue_cents: string;
  }>(
    // Set-based: the counted clicks (stamped with the recipient's number, read from their partial
    // index alone) and the payments of their span, joined once by phone, not looked up per click.
    `WITH clicked AS (
       SELECT job_id, to_number, min(counted_ts) AS clicked_ts
       FROM send_links
       WHERE job_id = ANY($1::text[]) AND counted_ts IS NOT NULL
       GROUP BY job_id, seq, to_number
     ), paid AS (
       SELECT u.phone_number, p.settled_ts, p.amount_cents
       FROM payments p JOIN users u ON u.id = p.user_id
       WHERE p.status = 'succeeded'
         AND p.settled_ts >= (SELECT min(clicked_ts) FROM clicked)
         AND p.settled_ts < (SELECT max(clicked_ts) FROM clicked) + $2::int8
     ), converted AS (
       SELECT DISTINCT ON (c.job_id, c.to_number) c.job_id, c.to_number, paid.amount_cents
       FROM clicked c
       JOIN paid ON paid.phone_number = c.to_number AND paid.settled_ts >= c.clicked_ts
         AND paid.settled_ts < c.clicked_ts + $2::int8
       ORDER BY c.job_id, c.to_number, paid.settled_ts
     )
     SELECT c.job_id, count(*)::int AS clicks, count(v.amount_cents)::int AS conversions,
            COALESCE(sum(v.amount_cents), 0)::int8 AS revenue_cents
     FROM clicked c LEFT JOIN converted v ON v.job_id = c.job_id AND v.to_number = c.to_number
     GROUP BY c.job_id`,
    [jobIds, CONVERSION_WINDOW_MS],
  );
  return new Map(
    rows.map((r) => [
      r.job_id,
      { clicks: r.clicks, conversions: r.conversions, revenueCents: Number(r.revenue_cents) },
    ]),
  );
}

async function countJobResults(
  db: Queryable,
  jobIds: readonly string[],
  now: number,
): Promise<Map<string, JobResults & { lastSent: number | null; deliveryFinal: boolean }>> {
  const [totals, reasons, links] = await Promise.all([
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
    countLinks(db, jobIds),
  ]);
  const results = new Map<
    string,
    JobResults & { lastSent: number | null; deliveryFinal: boolean }
  >();
  for (const id of jobIds) {
    const t = totals.find((r) => r.job_id === id);
    const l = links.get(id) ?? NO_LINKS;
    const lastSent =
      t?.last_sent === null || t?.last_sent === undefined ? null : Number(t.last_sent);
    const settled = (after: number) =>
      (t?.open ?? 0) === 0 && (lastSent === null || lastSent + after <= now);
    const failedByReason: Record<string, number> = {};
    for (const r of reasons) if (r.job_id === id) failedByReason[r.reason] = r.n;
    results.set(id, {
      recipients: t?.recipients ?? 0,
      delivered: t?.delivered ?? 0,
      failed: t?.failed ?? 0,
      failedByReason,
      optedOut: t?.opted_out ?? 0,
      ...l,
      billable: t?.billable ?? 0,
      segments: t?.segments ?? 0,
      final: settled(LINKS_SETTLED_MS),
      lastSent,
      deliveryFinal: settled(OPT_OUT_WINDOW_MS),
    });
  }
  return results;
}
