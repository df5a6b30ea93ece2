// The short links of marketing SMS (docs/product.md, 'Tracked links'): made with the recipients, one
// random code per recipient per address, read back by the worker to write each recipient's text,
// and opened by GET /l/:code. Codes are random and stored rather than derived from the job and
// recipient: a derived code needs a key that must never change and a longer code to carry the job,
// while a stored one is 8 characters and costs one set-based insert of the job's rows.
import { randomBytes } from 'node:crypto';
import { LINK_CODE_ALPHABET, LINK_CODE_LENGTH } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

/** `n` codes of LINK_CODE_LENGTH characters, each uniformly random (bytes past 247 are dropped). */
function newLinkCodes(n: number): string[] {
  const codes: string[] = [];
  let code = '';
  while (codes.length < n) {
    for (const byte of randomBytes(Math.ceil((n - codes.length) * LINK_CODE_LENGTH * 1.05) + 16)) {
      if (byte >= 248) continue;
      code += LINK_CODE_ALPHABET[byte % 62];
      if (code.length === LINK_CODE_LENGTH) {
        codes.push(code);
        code = '';
        if (codes.length === n) break;
      }
    }
  }
  return codes;
}

/**
 * Gives each recipient (`seqs` of the job) a code for each of `urls`, in one statement. A code
 * already taken (about one in 10^7 at a hundred million links) is drawn again for just those rows.
 * The insert answers only how many rows it wrote: on PGlite a returned row each cost about a fifth
 * of the statement. Only when some are missing are the job's written rows read back.
 */
export async function createRecipientLinks(
  tx: Queryable,
  jobId: string,
  seqs: readonly number[],
  urls: readonly string[],
  /** Draws `n` codes; tests give taken ones. */
  drawCodes: (n: number) => string[] = newLinkCodes,
): Promise<void> {
  let pending = seqs.flatMap((seq) => urls.map((_, index) => ({ seq, index })));
  while (pending.length > 0) {
    const codes = drawCodes(pending.length);
    const [written] = await tx.query<{ n: number }>(
      `WITH written AS (
         INSERT INTO send_links (code, job_id, seq, url_index, url)
         SELECT t.code, $1, t.seq, t.url_index, ($5::text[])[t.url_index + 1]
         FROM unnest($2::text[], $3::int[], $4::int2[]) AS t(code, seq, url_index)
         ON CONFLICT DO NOTHING
         RETURNING 1
       ) SELECT count(*)::int AS n FROM written`,
      [jobId, codes, pending.map((p) => p.seq), pending.map((p) => p.index), urls],
    );
    if (written?.n === pending.length) return;
    const rows = await tx.query<{ seq: number; url_index: number }>(
      'SELECT seq, url_index FROM send_links WHERE job_id = $1 AND seq = ANY($2::int[])',
      [jobId, [...new Set(pending.map((p) => p.seq))]],
    );
    const done = new Set(rows.map((w) => `${w.seq} ${w.url_index}`));
    pending = pending.filter((p) => !done.has(`${p.seq} ${p.index}`));
  }
}

/** Each recipient's codes in the order of the addresses in the text, by `jobId seq`. */
export async function findRecipientLinks(
  tx: Queryable,
  recipients: readonly { jobId: string; seq: number }[],
): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>();
  if (recipients.length === 0) return links;
  const rows = await tx.query<{ job_id: string; seq: number; url_index: number; code: string }>(
    `SELECT l.job_id, l.seq, l.url_index, l.code
     FROM unnest($1::text[], $2::int[]) AS t(job_id, seq)
     JOIN send_links l ON l.job_id = t.job_id AND l.seq = t.seq`,
    [recipients.map((r) => r.jobId), recipients.map((r) => r.seq)],
  );
  for (const row of rows) {
    const key = `${row.job_id} ${row.seq}`;
    const codes = links.get(key) ?? [];
    codes[row.url_index] = row.code;
    links.set(key, codes);
  }
  return links;
}

/** How long after a recipient's text a click on its link counts for the send. */
export const CLICK_WINDOW_MS = 7 * 86_400_000;

/**
 * The address behind `code`, or null for none. A counted open adds one to the link's clicks and
 * keeps the first one's time, and the first within CLICK_WINDOW_MS of the recipient's text is
 * stamped as the send's click with their number; an uncounted one (a bot, a preview fetch, a HEAD)
 * only reads it.
 */
export async function openLink(
  db: Queryable,
  code: string,
  opened: { now: number; counted: boolean },
): Promise<string | null> {
  const rows = opened.counted
    ? await db.query<{ url: string }>(
        `UPDATE send_links l SET clicks = l.clicks + 1,
           first_click_ts = COALESCE(l.first_click_ts, $2),
           counted_ts = COALESCE(l.counted_ts, CASE WHEN $2 < r.sent_ts + $3::int8 THEN $2::int8 END),
           to_number = r.to_number
         FROM send_recipients r
         WHERE l.code = $1 AND r.job_id = l.job_id AND r.seq = l.seq
         RETURNING l.url`,
        [code, opened.now, CLICK_WINDOW_MS],
      )
    : await db.query<{ url: string }>('SELECT url FROM send_links WHERE code = $1', [code]);
  return rows[0]?.url ?? null;
}
