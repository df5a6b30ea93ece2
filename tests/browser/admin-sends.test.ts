// The Sends page in a real browser: the weekly charts and each send's row (clicks on its tracked
// links included), drawn from the gateway's results, with the charting library loaded on that page
// and not on the landing page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSandbox, OWNER, settled, signIn, startBrowserSandbox } from './harness.js';

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  const created = Date.now() - 10 * 86_400_000;
  await sandbox.gateway.db.query(
    `INSERT INTO send_jobs (id, created_by, idempotency_key, request_hash, channel, body,
       response_status, response_body, created_ts, origin)
     VALUES ('results-job', 'owner', 'results-job', 'h', 'sms', 'Results page send', 202,
       'null'::jsonb, $1, 'admin')`,
    [created],
  );
  await sandbox.gateway.db.query(
    `INSERT INTO send_recipients (job_id, seq, to_number, status, next_attempt_ts, sent_ts,
       error_code)
     SELECT 'results-job', g, '+1202555' || lpad(g::text, 4, '0'),
            CASE WHEN g <= 40 THEN 'delivered' ELSE 'failed' END, $1::int8, $1::int8,
            CASE WHEN g > 40 THEN 30003 END
     FROM generate_series(1, 45) AS g`,
    [created],
  );
  // One recipient opened the send's tracked link a minute after it went.
  await sandbox.gateway.db.query(
    `INSERT INTO send_links (code, job_id, seq, url_index, url, clicks, first_click_ts,
       counted_ts, to_number)
     VALUES ('Rs1Lnk0a', 'results-job', 1, 0, 'https://blockcatch.example/renew', 1, $1, $1,
       '+12025550001')`,
    [created + 60_000],
  );
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the Sends page', () => {
  it('charts the weeks and lists each send, loading the charts only there', async () => {
    const { page, errors } = await sandbox.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await settled(page);
    expect(scripts.some((s) => s.includes('ResultsCharts'))).toBe(false);

    await signIn(page, OWNER);
    await page.goto('/admin/sends');
    await settled(page);
    const row = page.getByTestId('send-result').filter({ hasText: 'Results page send' });
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('45');
    expect(await row.locator('td').nth(3).textContent()).toBe('40');
    expect(await row.locator('td').nth(4).textContent()).toBe('5');
    expect(await row.locator('td').nth(6).textContent()).toBe('1');
    expect(await row.locator('td').nth(7).textContent()).toBe('0');
    await page.getByText('Delivered and failed per week').waitFor();
    await page.getByText('Failures by reason per week').waitFor();
    await page.getByText('Link clicks, renewals and revenue per week').waitFor();
    await expect.poll(() => page.locator('.recharts-surface').count()).toBeGreaterThanOrEqual(4);
    expect(scripts.some((s) => s.includes('ResultsCharts'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
