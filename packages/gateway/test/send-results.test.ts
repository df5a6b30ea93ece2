// The Sends page's results over time, on a clock the test sets: per send (delivered, failed by
// reason, opt-outs within its week, cost of what the provider accepted) and per week; a send that
// can no longer change is counted once and kept, a newer one is counted live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPT_OUT_WINDOW_MS } from '../src/storage/send-results.js';
import { client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { OWNER } from './helpers/people.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 12);
const OLD = NOW - 20 * DAY;
const RECENT = NOW - DAY;
const PRICE = 0.01;

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({ smsSegmentPrice: PRICE }, { messagingClock: () => NOW });
});

afterAll(async () => {
  await running?.gateway.close();
});

async function insertJob(
  id: string,
  createdTs: number,
  rows: { to: string; status: string; segments?: number; errorCode?: number }[],
) {
  const db = running.gateway.db;
  await db.query(
    `INSERT INTO send_jobs (id, created_by, idempotency_key, request_hash, channel, body,
       response_status, response_body, created_ts, origin)
     VALUES ($1, 'owner', $1, 'h', 'sms', $2, 202, 'null'::jsonb, $3, 'admin')`,
    [id, `Body of ${id}`, createdTs],
  );
  for (const [i, r] of rows.entries()) {
    await db.query(
      `INSERT INTO send_recipients (job_id, seq, to_number, status, next_attempt_ts, sent_ts,
         segments, error_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        i + 1,
        r.to,
        r.status,
        createdTs,
        createdTs + 1000,
        r.segments ?? 1,
        r.errorCode ?? null,
      ],
    );
  }
}

const results = async () => {
  const answer = await client(running.url, running.as(OWNER).authorization)(
    'GET',
    '/api/flex/v1/admin/send-results?weeks=4',
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('send results', () => {
  beforeAll(async () => {
    await insertJob('old-send', OLD, [
      { to: '+12025550301', status: 'delivered', segments: 2 },
      { to: '+12025550302', status: 'delivered', segments: 2 },
      { to: '+12025550303', status: 'delivered', segments: 2 },
      { to: '+12025550304', status: 'failed', errorCode: 30003 },
      { to: '+12025550305', status: 'undelivered', segments: 2, errorCode: 30005 },
      { to: '+12025550306', status: 'skipped-opted-out' },
    ]);
    await insertJob('recent-send', RECENT, [
      { to: '+12025550311', status: 'delivered' },
      { to: '+12025550312', status: 'sent' },
    ]);
    await running.gateway.db.query(
      'INSERT INTO opt_outs (phone_number, opted_out_ts) VALUES ($1, $2), ($3, $4), ($5, $6)',
      [
        '+12025550301',
        OLD + 2 * DAY,
        // Outside the send's week: not its opt-out.
        '+12025550302',
        OLD + 1000 + OPT_OUT_WINDOW_MS + 1,
        '+12025550311',
        RECENT + 3600_000,
      ],
    );
  });

  it('counts each send: delivered, failed by reason, opt-outs in its week, cost of what was accepted', async () => {
    const { sends } = await results();
    expect(sends.map((s: { jobId: string }) => s.jobId)).toEqual(['recent-send', 'old-send']);
    expect(sends[1]).toMatchObject({
      recipients: 6,
      delivered: 3,
      failed: 2,
      failedByReason: { '30003': 1, '30005': 1 },
      optedOut: 1,
      cost: 8 * PRICE,
      final: true,
    });
    expect(sends[0]).toMatchObject({ delivered: 1, optedOut: 1, cost: 2 * PRICE, final: false });
  });

  it('sums sends per week, every week of the range listed', async () => {
    const { weeks } = await results();
    expect(weeks.map((w: { week: string }) => w.week)).toEqual([
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
    ]);
    expect(weeks[0]).toMatchObject({ sends: 1, delivered: 3, failed: 2, optedOut: 1 });
    expect(weeks[1]).toMatchObject({ sends: 0, delivered: 0 });
    expect(weeks[3]).toMatchObject({ sends: 1, delivered: 1 });
  });

  it('keeps a final send once counted and counts a newer one live', async () => {
    await results();
    const kept = await running.gateway.db.query<{ job_id: string }>(
      'SELECT job_id FROM send_job_results',
    );
    expect(kept.map((r) => r.job_id)).toEqual(['old-send']);
    // A late change to a kept send is not counted again; a live one shows at once.
    await running.gateway.db.query(
      "UPDATE send_recipients SET status = 'delivered' WHERE job_id IN ('old-send', 'recent-send')",
    );
    const { sends } = await results();
    expect(sends[1].delivered).toBe(3);
    expect(sends[0].delivered).toBe(2);
  });
});
