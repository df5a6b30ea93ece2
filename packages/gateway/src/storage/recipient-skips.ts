// Which recipients a send skips, and why, in SQL: one expression both the job's insert and the
// review's preview use, so the review counts exactly what the send will skip. Every send skips
// numbers that opted out of everything and known landlines or unknown numbers; marketing also
// skips numbers that opted out of its sender, that have no recorded consent, and that already
// have the weekly cap of marketing messages around the new one's time.
import type { Queryable } from './db.js';

const WEEK_MS = 7 * 86_400_000;

/** Marketing's rules for one send; null for the service's own texts (codes, alerts, invitations). */
export interface MarketingRules {
  /** Skip numbers with no recorded consent. */
  consent: boolean;
  /** Most marketing messages per number in any 7 days; 0: no cap. */
  weeklyCap: number;
  /** The sender marketing goes out from: a STOP to it alone skips the number too. */
  optOutSender: string | null;
}

/** States a marketing message counts toward the weekly cap in: sent, or on its way. */
const CAPPED_STATES = "('queued', 'sending', 'sent', 'delivered', 'undelivered')";

/**
 * The state (`queued` or a `skipped-…`) of the number in `t.to_number` due at `dueSql`, with the
 * joins it needs; values it needs are appended to `params`.
 */
export function skipStateSql(
  params: unknown[],
  rules: MarketingRules | null,
  dueSql: string,
): { state: string; joins: string } {
  const joins = [
    'LEFT JOIN opt_outs o ON o.phone_number = t.to_number',
    'LEFT JOIN undeliverable_numbers u ON u.phone_number = t.to_number',
  ];
  const whens = [
    "WHEN o.phone_number IS NOT NULL THEN 'skipped-opted-out'",
    "WHEN u.reason = 'landline' THEN 'skipped-landline'",
    "WHEN u.reason = 'invalid' THEN 'skipped-invalid'",
  ];
  if (rules) {
    if (rules.optOutSender !== null) {
      params.push(rules.optOutSender);
      joins.push(
        `LEFT JOIN sender_opt_outs so ON so.phone_number = t.to_number AND so.sender = $${params.length}`,
      );
      whens.splice(1, 0, "WHEN so.phone_number IS NOT NULL THEN 'skipped-opted-out'");
    }
    if (rules.consent) {
      joins.push('LEFT JOIN marketing_consents c ON c.phone_number = t.to_number AND c.consented');
      whens.push("WHEN c.phone_number IS NULL THEN 'skipped-no-consent'");
    }
    if (rules.weeklyCap > 0) {
      params.push(rules.weeklyCap);
      const cap = `$${params.length}`;
      // Any 7 days holding the new message hold at most `cap`: counting the week either side of
      // it keeps every such window within the cap, scheduled messages included.
      whens.push(
        `WHEN (SELECT count(*) FROM send_recipients w
               WHERE w.to_number = t.to_number AND w.lane = 2 AND w.status IN ${CAPPED_STATES}
                 AND w.next_attempt_ts > ${dueSql} - ${WEEK_MS}
                 AND w.next_attempt_ts < ${dueSql} + ${WEEK_MS}) >= ${cap}
         THEN 'skipped-weekly-cap'`,
      );
    }
  }
  return { state: `CASE ${whens.join('\n')} ELSE 'queued' END`, joins: joins.join('\n') };
}

/** What a send would skip among `numbers` (each due at `dues[i]`), in request order. */
export async function findSkippedRecipients(
  db: Queryable,
  numbers: readonly string[],
  dues: readonly number[],
  rules: MarketingRules | null,
): Promise<{ number: string; status: string }[]> {
  if (numbers.length === 0) return [];
  const params: unknown[] = [numbers, dues];
  const { state, joins } = skipStateSql(params, rules, 't.due');
  return db.query<{ number: string; status: string }>(
    `SELECT number, status FROM (
       SELECT t.to_number AS number, t.seq, ${state} AS status
       FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS t(to_number, due, seq)
       ${joins}
     ) s WHERE status <> 'queued' ORDER BY seq`,
    params,
  );
}

/**
 * Marketing recipients the worker is about to send that no longer may: consent withdrawn since
 * they were queued, or the cap reached by messages handed over since. Answers `number` → state.
 */
export async function findMarketingRefusals(
  db: Queryable,
  recipients: readonly { to: string; jobId: string }[],
  now: number,
  rules: MarketingRules,
): Promise<Map<string, string>> {
  if (recipients.length === 0 || (!rules.consent && rules.weeklyCap === 0)) return new Map();
  const rows = await db.query<{ number: string; job_id: string; status: string }>(
    `SELECT t.to_number AS number, t.job_id,
            CASE WHEN $3 AND c.phone_number IS NULL THEN 'skipped-no-consent'
                 WHEN $4::int > 0 AND (SELECT count(*) FROM send_recipients w
                   WHERE w.to_number = t.to_number AND w.lane = 2 AND w.job_id <> t.job_id
                     AND w.status IN ('sending', 'sent', 'delivered', 'undelivered')
                     AND COALESCE(w.sent_ts, w.next_attempt_ts) > $5::bigint - ${WEEK_MS}) >= $4::int
                 THEN 'skipped-weekly-cap' ELSE 'queued' END AS status
     FROM unnest($1::text[], $2::text[]) AS t(to_number, job_id)
     LEFT JOIN marketing_consents c ON c.phone_number = t.to_number AND c.consented`,
    [
      recipients.map((r) => r.to),
      recipients.map((r) => r.jobId),
      rules.consent,
      rules.weeklyCap,
      now,
    ],
  );
  return new Map(
    rows.filter((r) => r.status !== 'queued').map((r) => [`${r.number} ${r.job_id}`, r.status]),
  );
}
