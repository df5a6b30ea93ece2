// Tracked links in marketing SMS, on a gateway whose messaging clock the test moves: each address
// goes as a short link of the link domain, one per recipient, which redirects to it; a person's
// open counts a click, a previewer's, a bot's or a HEAD does not; a payment within 7 days of the
// click is the send's conversion and its revenue; the gateway's own texts keep their addresses;
// and the redirect cannot be turned to another address or made to look up garbage.
import { randomUUID } from 'node:crypto';
import { isLinkCode, segmentSms } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { recordCharge } from '../src/storage/payments.js';
import { insertUsers } from '../src/storage/users.js';
import { client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { OWNER } from './helpers/people.js';

const DAY = 86_400_000;
const LINK_BASE = 'https://bc.example';
const TARGET = 'https://blockcatch.example/renew?from=sms&week=48';
const MESSAGE = `Your week ends Sunday. Renew: ${TARGET}. Reply STOP to opt out`;
const PHONES = { early: '+12025550401', late: '+12025550402', bot: '+12025550403' };
const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SHORT = /https:\/\/bc\.example\/l\/([0-9A-Za-z]+)/;

let running: RunningGateway;
let clock = Date.now();

beforeAll(async () => {
  running = await startGateway({ linkBaseUrl: LINK_BASE }, { messagingClock: () => clock });
  await insertUsers(
    running.gateway.db,
    Object.entries(PHONES).map(([name, phone]) => ({
      id: `link-driver-${name}`,
      product: 'flex' as const,
      name: `Driver ${name}`,
      phone_number: phone,
    })),
  );
});

afterAll(async () => {
  await running?.gateway.close();
});

const owner = () => client(running.url, running.as(OWNER).authorization);

async function outboxTo(phone: string): Promise<string[]> {
  const rows = await running.gateway.db.query<{ body: string }>(
    'SELECT body FROM outbox_messages WHERE to_number = $1 ORDER BY id',
    [phone],
  );
  return rows.map((r) => r.body);
}

const open = (code: string, init: RequestInit = {}) =>
  fetch(`${running.url}/l/${code}`, {
    redirect: 'manual',
    ...init,
    headers: { 'user-agent': BROWSER, ...init.headers },
  });

async function clicksOf(code: string): Promise<{ clicks: number; first_click_ts: number | null }> {
  const [row] = await running.gateway.db.query<{ clicks: number; first_click_ts: number | null }>(
    'SELECT clicks, first_click_ts FROM send_links WHERE code = $1',
    [code],
  );
  return { clicks: row!.clicks, first_click_ts: row!.first_click_ts };
}

async function pay(userId: string, at: number, amountCents: number) {
  await recordCharge(running.gateway.db, {
    id: randomUUID(),
    userId,
    key: `invoice:${randomUUID()}`,
    provider: 'sandbox',
    providerRef: null,
    kind: 'renewal',
    weeks: 1,
    amountCents,
    status: 'succeeded',
    cardLast4: '4242',
    failureReason: null,
    receiptUrl: null,
    now: at,
  });
}

describe('tracked links in a marketing send', () => {
  const codes: Record<string, string> = {};
  let jobId = '';

  beforeAll(async () => {
    const sent = await owner()(
      'POST',
      '/api/flex/v1/admin/sendsms',
      { message: MESSAGE, numbers: Object.values(PHONES).map((number) => ({ number })) },
      { 'idempotency-key': randomUUID() },
    );
    expect(sent.status).toBe(202);
    jobId = sent.body.jobId;
    for (const [name, phone] of Object.entries(PHONES)) {
      const [text] = await eventually(async () => {
        const texts = await outboxTo(phone);
        expect(texts).toHaveLength(1);
        return texts;
      });
      codes[name] = SHORT.exec(text!)![1]!;
    }
  });

  it('sends each recipient their own short link on the link domain instead of the address', async () => {
    const text = (await outboxTo(PHONES.early))[0]!;
    expect(text).not.toContain(TARGET);
    expect(text).toBe(MESSAGE.replace(TARGET, `${LINK_BASE}/l/${codes.early}`));
    expect(Object.values(codes).every(isLinkCode)).toBe(true);
    expect(new Set(Object.values(codes)).size).toBe(3);
  });

  it('reviews the text with a short link of the same length, and bills its segments', async () => {
    const long = `Renew now ${TARGET}&${'x'.repeat(150)}`;
    expect(segmentSms(long).segments).toBe(2);
    const preview = await owner()('POST', '/api/flex/v1/admin/send-preview', {
      channel: 'sms',
      message: long,
      numbers: [{ number: PHONES.early }],
    });
    expect(preview.status).toBe(200);
    expect(preview.body.preview.text).toMatch(/^Renew now https:\/\/bc\.example\/l\/\w{8}$/);
    expect(preview.body.segments).toBe(1);
    const [row] = await running.gateway.db.query<{ segments: number }>(
      'SELECT segments FROM send_recipients WHERE job_id = $1 LIMIT 1',
      [jobId],
    );
    expect(row!.segments).toBe(
      segmentSms(MESSAGE.replace(TARGET, `${LINK_BASE}/l/xxxxxxxx`)).segments,
    );
  });

  it("redirects a person's open to the address and counts it once, keeping the first time", async () => {
    const first = await open(codes.early!);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(TARGET);
    const clickedAt = clock;
    clock += 60_000;
    expect((await open(codes.early!)).status).toBe(302);
    expect(await clicksOf(codes.early!)).toEqual({ clicks: 2, first_click_ts: clickedAt });
  });

  it('redirects previewers, bots and HEAD requests without counting them', async () => {
    for (const agent of [
      'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
      'WhatsApp/2.23.20.0 A',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'curl/8.5.0',
    ]) {
      const answer = await open(codes.bot!, { headers: { 'user-agent': agent } });
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe(TARGET);
    }
    expect((await open(codes.bot!, { method: 'HEAD' })).status).toBe(302);
    expect(await clicksOf(codes.bot!)).toEqual({ clicks: 0, first_click_ts: null });
  });

  it('counts a payment 3 days after the click as a conversion, and not one 8 days after', async () => {
    clock += DAY;
    expect((await open(codes.late!)).status).toBe(302);
    const read = async () => {
      const answer = await owner()('GET', '/api/flex/v1/admin/send-results?weeks=6');
      expect(answer.status).toBe(200);
      return answer.body as { sends: Record<string, unknown>[]; weeks: Record<string, number>[] };
    };
    const sendOf = async () => (await read()).sends.find((s) => s.jobId === jobId);
    const kept = async () =>
      (
        await running.gateway.db.query<{
          clicks: number;
          revenue_cents: string;
          links_final: boolean;
        }>('SELECT clicks, revenue_cents, links_final FROM send_job_results WHERE job_id = $1', [
          jobId,
        ])
      )[0];
    // Past the opt-out week: the delivery figures are kept, the links still counted.
    clock += 9 * DAY;
    expect(await sendOf()).toMatchObject({ clicks: 2, conversions: 0, revenue: 0, final: false });
    expect(await kept()).toMatchObject({ links_final: false });

    const early = await clicksOf(codes.early!);
    const late = await clicksOf(codes.late!);
    await pay('link-driver-early', Number(early.first_click_ts) + 3 * DAY, 2500);
    await pay('link-driver-late', Number(late.first_click_ts) + 8 * DAY, 2500);
    // The bot's recipient paid too, but never clicked: not the send's conversion.
    await pay('link-driver-bot', Number(late.first_click_ts) + DAY, 2500);
    expect(await sendOf()).toMatchObject({ clicks: 2, conversions: 1, revenue: 25, final: false });

    clock += 11 * DAY;
    const { sends, weeks } = await read();
    const send = sends.find((s) => s.jobId === jobId);
    expect(send).toMatchObject({ clicks: 2, conversions: 1, revenue: 25, final: true });
    const total = (key: string) => weeks.reduce((a, w) => a + w[key]!, 0);
    expect([total('clicks'), total('conversions'), total('revenue')]).toEqual([2, 1, 25]);
    // Kept once final, and read back the same.
    const row = await kept();
    expect([row?.clicks, Number(row?.revenue_cents), row?.links_final]).toEqual([2, 2500, true]);
    expect(await sendOf()).toEqual(send);
  });

  it("redirects an open weeks after the text, but it is not the send's click", async () => {
    expect((await open(codes.bot!)).status).toBe(302);
    expect((await clicksOf(codes.bot!)).clicks).toBe(1);
    const [row] = await running.gateway.db.query<{ counted_ts: number | null }>(
      'SELECT counted_ts FROM send_links WHERE code = $1',
      [codes.bot],
    );
    expect(row!.counted_ts).toBeNull();
  });
});

describe("the gateway's own texts", () => {
  it('keep their addresses as written', async () => {
    const phone = '+12025550411';
    const body = `Your block starts soon: ${TARGET}`;
    await running.gateway.messaging.enqueue({
      createdBy: 'system',
      key: 'alert:links',
      to: phone,
      body,
    });
    const texts = await eventually(async () => {
      const found = await outboxTo(phone);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(texts[0]).toBe(body);
  });
});

describe('the short-link redirect under attack', () => {
  it('answers a malformed or overlong code 4xx without looking it up, and says nothing', async () => {
    const queries = vi.spyOn(running.gateway.db, 'query');
    try {
      for (const bad of [
        'abc',
        'abcdefghi',
        'abcd-fgh',
        '..%2F..%2Fx',
        '%00abcdefg',
        'abcdéfgh',
        'x'.repeat(90),
        'x'.repeat(5000),
      ]) {
        const answer = await open(bad, { headers: { accept: 'text/html' } });
        // The router itself refuses an encoded NUL (400); the rest is refused here.
        expect(answer.status, bad.slice(0, 20)).toBe(bad.startsWith('%00') ? 400 : 404);
        const text = await answer.text();
        expect(text).not.toContain(bad.slice(0, 9));
        expect(answer.headers.get('location')).toBeNull();
      }
      const lookups = queries.mock.calls.filter(([sql]) => String(sql).includes('send_links'));
      expect(lookups).toEqual([]);
    } finally {
      queries.mockRestore();
    }
  });

  it('answers an unknown code of the right shape 404, a page for a browser in its language', async () => {
    const page = await open('Zz9Zz9Zz', {
      headers: { accept: 'text/html', 'accept-language': 'es-MX,es;q=0.9' },
    });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Enlace no encontrado');
    const api = await open('Zz9Zz9Zz');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('not_found');
  });

  it('redirects only to the address the send held, whatever the request adds', async () => {
    const [link] = await running.gateway.db.query<{ code: string }>(
      'SELECT code FROM send_links LIMIT 1',
    );
    for (const extra of [
      '?url=https://evil.example',
      '?next=//evil.example',
      '#https://evil.example',
    ]) {
      const answer = await open(`${link!.code}${extra}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe(TARGET);
    }
  });
});
