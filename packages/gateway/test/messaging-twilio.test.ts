// Delivery through Twilio's REST API, against a fake Twilio on 127.0.0.1 that checks the account
// path, Basic auth and form fields and can be told to fail; templates sent as ContentSid with their
// variables; MessageStatus callbacks; and the webhooks' signatures.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { twilioSignature } from '../src/messaging/webhook-signature.js';
import { upsertTemplates } from '../src/storage/templates.js';
import {
  type MessagingServer,
  OWNER,
  openTestDb,
  startMessagingServer,
  type TestDb,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const SID = 'AC0123456789abcdef';
const TOKEN = 'test-auth-token';
const STATUS_CALLBACK = 'https://gateway.example/api/webhooks/twilio/status';

interface Received {
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

/** The fake's behaviour per destination number: answers to give, in order, before succeeding. */
type Answer = { status: number; code?: number };

describe('the twilio provider', () => {
  let fake: Server;
  let fakeUrl: string;
  let received: Received[] = [];
  let messageCount = 0;
  let script = new Map<string, Answer[]>();
  /** WhatsApp's answer per content id, as the Content API's ApprovalRequests gives it. */
  const approvals = new Map<string, { status: string; rejection_reason?: string } | null>();
  let testDb: TestDb;
  let server: MessagingServer;

  beforeAll(async () => {
    fake = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = Object.fromEntries(new URLSearchParams(raw));
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, form });
      const expectedAuth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const approval = /^\/v1\/Content\/(HX[0-9a-f]{32})\/ApprovalRequests$/.exec(req.url ?? '');
      if (req.method === 'GET' && approval) {
        if (req.headers.authorization !== expectedAuth) {
          return reply(401, { code: 20003, message: 'Authenticate' });
        }
        const sid = approval[1]!;
        if (!approvals.has(sid)) return reply(404, { code: 20404, message: 'Not found' });
        const whatsapp = approvals.get(sid);
        return reply(200, {
          sid,
          account_sid: SID,
          url: `https://content.twilio.com/v1/Content/${sid}/ApprovalRequests`,
          ...(whatsapp
            ? {
                whatsapp: {
                  name: 'renewal',
                  category: 'UTILITY',
                  content_type: 'twilio/text',
                  allow_category_change: true,
                  rejection_reason: '',
                  ...whatsapp,
                },
              }
            : {}),
        });
      }
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`) {
        return reply(404, { code: 20404, message: 'The requested resource was not found' });
      }
      if (req.headers.authorization !== expectedAuth) {
        return reply(401, { code: 20003, message: 'Authenticate' });
      }
      if (!form.To || !form.From || !(form.Body || form.ContentSid)) {
        return reply(400, { code: 21604, message: "A 'To', 'From' and 'Body' are required" });
      }
      const answer = script.get(form.To.replace('whatsapp:', ''))?.shift();
      if (answer && answer.status >= 300) {
        return reply(answer.status, {
          code: answer.code ?? answer.status,
          message: 'scripted failure',
        });
      }
      messageCount++;
      reply(201, { sid: `SM${String(messageCount).padStart(32, '0')}`, status: 'queued' });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const address = fake.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    fakeUrl = `http://127.0.0.1:${address.port}`;

    testDb = await openTestDb('pglite');
    await withOwner(testDb, { can_see_billing: true });
    await upsertTemplates(testDb.db, [
      {
        id: 't1',
        name: 'hello',
        language: 'en',
        components: [
          { type: 'HEADER', text: 'Hi' },
          { type: 'BODY', text: 'Blocks are open' },
        ],
      },
    ]);
    await testDb.db.query(
      `INSERT INTO users (id, product, phone_number, name, create_date_ts, preferred_language,
                          expiration_ts)
       VALUES ('maria', 'flex', '+15551230010', 'Maria Lopez', 0, 'es', 1796083200000),
              ('john', 'flex', '+15551230011', 'John Smith', 0, 'en', 1796083200000)`,
    );
    const renewal = (language: string, text: string, sid: string) => ({
      id: `renewal-${language}`,
      name: 'renewal',
      language,
      contentSid: sid,
      approvalStatus: 'approved' as const,
      components: [{ type: 'BODY' as const, text }],
      variables: [
        { key: '1', type: 'text' as const, source: 'firstName' as const },
        { key: '2', type: 'date' as const, source: 'expirationDate' as const },
        { key: '3', type: 'text' as const, source: 'value' as const },
      ],
    });
    await upsertTemplates(testDb.db, [
      renewal('en', 'Hi {{1}}, your week ends {{2}}. {{3}}', `HX${'a'.repeat(32)}`),
      renewal('es_MX', 'Hola {{1}}, tu semana termina el {{2}}. {{3}}', `HX${'b'.repeat(32)}`),
    ]);
    server = await startMessagingServer(testDb.db, {
      retryBaseMs: 20,
      config: {
        sendRate: 0,
        messageProvider: 'twilio',
        twilio: {
          accountSid: SID,
          authToken: TOKEN,
          from: '+15550000000',
          whatsappFrom: '+15550000001',
          baseUrl: fakeUrl,
          contentBaseUrl: fakeUrl,
          statusCallbackUrl: STATUS_CALLBACK,
        },
      },
    });
  });

  afterAll(async () => {
    await server?.close();
    await testDb?.close();
    await new Promise((resolve) => fake?.close(resolve));
  });

  beforeEach(() => {
    received = [];
    script = new Map();
  });

  async function post(path: string, body: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-test-user': OWNER,
        'idempotency-key': `k-${Math.random()}`,
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(202);
    const answer = (await response.json()) as { jobId: string };
    await waitForJob(testDb.db, answer.jobId, 20_000);
    return testDb.db.query<{
      to_number: string;
      status: string;
      attempts: number;
      last_error: string | null;
    }>(
      'SELECT to_number, status, attempts, last_error FROM send_recipients WHERE job_id = $1 ORDER BY seq',
      [answer.jobId],
    );
  }

  it('sends SMS with the account path, Basic auth and To, From and Body', async () => {
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230001' }],
      message: 'Hello',
    });
    expect(rows).toEqual([
      { to_number: '+15551230001', status: 'sent', attempts: 1, last_error: null },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]!.form).toEqual({
      To: '+15551230001',
      From: '+15550000000',
      Body: 'Hello',
      StatusCallback: STATUS_CALLBACK,
    });
  });

  it('refuses a WhatsApp template without a Content SID, naming it, instead of sending free text', async () => {
    const response = await fetch(`${server.url}/api/flex/v1/admin/sendWhatsapp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-test-user': OWNER,
        'idempotency-key': `k-${Math.random()}`,
      },
      body: JSON.stringify({
        numbers: [{ number: '5551230002' }],
        msgTemplate: { name: 'hello', language: 'en', components: [] },
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; field: string; message: string };
    expect(body).toMatchObject({ code: 'template_not_approved', field: 'msgTemplate.name' });
    expect(body.message).toContain('"hello"');
    expect(received).toHaveLength(0);
  });

  it('marks a number Twilio calls invalid as skipped-invalid without retrying', async () => {
    script.set('+15551230003', [{ status: 400, code: 21211 }]);
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230003' }],
      message: 'Hello',
    });
    expect(rows[0]).toMatchObject({ status: 'skipped-invalid', attempts: 1 });
    expect(rows[0]?.last_error).toContain('21211');
    expect(received).toHaveLength(1);
  });

  it('retries rate limits and server errors with backoff, then sends', async () => {
    script.set('+15551230004', [{ status: 429, code: 20429 }, { status: 500 }]);
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230004' }],
      message: 'Hello',
    });
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 3 });
    expect(received).toHaveLength(3);
  });

  it('gives up after 5 attempts and records the failure', async () => {
    script.set(
      '+15551230005',
      Array.from({ length: 10 }, () => ({ status: 503 })),
    );
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230005' }],
      message: 'Hello',
    });
    expect(rows[0]).toMatchObject({ status: 'failed', attempts: 5 });
    expect(rows[0]?.last_error).toContain('503');
    expect(received).toHaveLength(5);
  });

  describe('WhatsApp templates with a content id', () => {
    const send = (msgTemplate: Record<string, unknown>, numbers = ['5551230010', '5551230011']) =>
      fetch(`${server.url}/api/flex/v1/admin/sendWhatsapp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-test-user': OWNER,
          'idempotency-key': `k-${Math.random()}`,
        },
        body: JSON.stringify({
          numbers: numbers.map((number) => ({ number })),
          msgTemplate: { components: [], ...msgTemplate },
        }),
      });

    it('sends ContentSid and ContentVariables, in each recipient language, and the outbox text', async () => {
      const response = await send({
        name: 'renewal',
        language: 'en',
        values: { '3': 'Renew today.' },
      });
      expect(response.status).toBe(202);
      const { jobId } = (await response.json()) as { jobId: string };
      await waitForJob(testDb.db, jobId, 20_000);
      const byTo = new Map(received.map((r) => [r.form.To, r.form]));
      // Maria prefers Spanish, which the template has; John gets the language asked for.
      expect(byTo.get('whatsapp:+15551230010')).toMatchObject({
        ContentSid: `HX${'b'.repeat(32)}`,
        From: 'whatsapp:+15550000001',
      });
      expect(JSON.parse(byTo.get('whatsapp:+15551230010')!.ContentVariables!)).toEqual({
        '1': 'Maria',
        '2': expect.stringMatching(/de 2026/),
        '3': 'Renew today.',
      });
      expect(byTo.get('whatsapp:+15551230011')!.Body).toBeUndefined();
      expect(JSON.parse(byTo.get('whatsapp:+15551230011')!.ContentVariables!)).toMatchObject({
        '1': 'John',
        '2': expect.stringMatching(/2026/),
      });
    });

    it('refuses a send whose variable is bound to nothing, naming it, and queues nothing', async () => {
      const [before] = await testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM send_jobs',
      );
      const response = await send({ name: 'renewal', language: 'en' });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('unbound_variable');
      expect(body.message).toContain('{{3}}');
      const [after] = await testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM send_jobs',
      );
      expect(after?.n).toBe(before?.n);
    });

    it('syncs approvals from the Content API: a rejected version is refused, naming it, and its readers get an approved one', async () => {
      approvals.set(`HX${'a'.repeat(32)}`, { status: 'approved' });
      approvals.set(`HX${'b'.repeat(32)}`, {
        status: 'rejected',
        rejection_reason: 'Promotional content in a utility template',
      });
      const sync = await fetch(`${server.url}/api/flex/v1/admin/templates/sync`, {
        method: 'POST',
        headers: { 'x-test-user': OWNER },
      });
      expect(sync.status).toBe(200);
      const synced = (await sync.json()) as {
        Items: { id: string; approvalStatus: string; rejectionReason: string | null }[];
        failed: unknown[];
      };
      expect(synced.failed).toEqual([]);
      const byId = new Map(synced.Items.map((t) => [t.id, t]));
      expect(byId.get('renewal-en')?.approvalStatus).toBe('approved');
      expect(byId.get('renewal-es_MX')).toMatchObject({
        approvalStatus: 'rejected',
        rejectionReason: 'Promotional content in a utility template',
      });
      // The trail keeps who synced and which templates changed status.
      const [event] = await testDb.db.query<{
        actor_id: string;
        target: string;
        detail: unknown;
      }>("SELECT actor_id, target, detail FROM audit_events WHERE action = 'template.change'");
      expect(event).toMatchObject({ actor_id: OWNER, target: 'templates' });
      expect(event!.detail).toEqual({
        changed: [{ id: 'renewal-es_MX', from: 'approved', to: 'rejected' }],
        failed: [],
      });
      // Every request to the Content API was a signed GET of one content's approval.
      expect(received.map((r) => r.path).sort()).toEqual([
        `/v1/Content/HX${'a'.repeat(32)}/ApprovalRequests`,
        `/v1/Content/HX${'b'.repeat(32)}/ApprovalRequests`,
      ]);

      const spanish = await send({ name: 'renewal', language: 'es', values: { '3': 'x' } });
      expect(spanish.status).toBe(400);
      const refusal = (await spanish.json()) as { code: string; message: string };
      expect(refusal.code).toBe('template_not_approved');
      expect(refusal.message).toContain('"renewal" (es_MX)');
      expect(refusal.message).toContain('rejected');

      // Maria reads Spanish, but only the English version is approved: she gets that one.
      received = [];
      const english = await send({ name: 'renewal', language: 'en', values: { '3': 'x' } });
      expect(english.status).toBe(202);
      await waitForJob(testDb.db, ((await english.json()) as { jobId: string }).jobId, 20_000);
      expect(received.map((r) => r.form.ContentSid)).toEqual([
        `HX${'a'.repeat(32)}`,
        `HX${'a'.repeat(32)}`,
      ]);

      // Approved again, for the tests after this one.
      approvals.set(`HX${'b'.repeat(32)}`, { status: 'approved' });
      await fetch(`${server.url}/api/flex/v1/admin/templates/sync`, {
        method: 'POST',
        headers: { 'x-test-user': OWNER },
      });
    });

    it('takes es for es_MX, and lists the languages that exist when one does not', async () => {
      const es = await send({ name: 'renewal', language: 'es', values: { '3': 'x' } }, [
        '5551230011',
      ]);
      expect(es.status).toBe(202);
      const fr = await send({ name: 'renewal', language: 'fr', values: { '3': 'x' } });
      expect(fr.status).toBe(400);
      const body = (await fr.json()) as { code: string; message: string };
      expect(body.code).toBe('template_language');
      expect(body.message).toContain('en, es_MX');
    });

    it('previews the message for the first recipient before sending', async () => {
      const response = await fetch(`${server.url}/api/flex/v1/admin/send-preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-user': OWNER },
        body: JSON.stringify({
          channel: 'whatsapp',
          numbers: [{ number: '5551230011' }, { number: 'nope' }],
          msgTemplate: { name: 'renewal', language: 'en', components: [], values: { '3': 'Go!' } },
        }),
      });
      expect(response.status).toBe(200);
      const preview = (await response.json()) as Record<string, unknown>;
      expect(preview).toMatchObject({
        preview: {
          to: '+15551230011',
          text: expect.stringMatching(/^Hi John, your week ends .*2026\. Go!$/),
        },
        queued: 1,
        skipped: [{ number: 'nope', reason: 'invalid' }],
      });
    });
  });

  describe('status callbacks', () => {
    const callback = (params: Record<string, string>, token = TOKEN) => {
      const url = `${server.url}/api/webhooks/twilio/status`;
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(token, url, params),
        },
        body: new URLSearchParams(params).toString(),
      });
    };
    /** Sends to `count` numbers from `first` on (numbers an earlier test reported are skipped). */
    const sentSids = async (count: number, first = 0) => {
      const numbers = Array.from({ length: count }, (_, i) => ({
        number: `555124${String(first + i).padStart(4, '0')}`,
      }));
      const response = await fetch(`${server.url}/api/flex/v1/admin/sendsms`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-test-user': OWNER,
          'idempotency-key': `k-${Math.random()}`,
        },
        body: JSON.stringify({ numbers, message: 'Hello' }),
      });
      const { jobId } = (await response.json()) as { jobId: string };
      await waitForJob(testDb.db, jobId, 20_000);
      return testDb.db.query<{ provider_sid: string; to_number: string }>(
        'SELECT provider_sid, to_number FROM send_recipients WHERE job_id = $1 ORDER BY seq',
        [jobId],
      );
    };
    const row = async (sid: string) =>
      (
        await testDb.db.query<{ status: string; error_code: number | null }>(
          'SELECT status, error_code FROM send_recipients WHERE provider_sid = $1',
          [sid],
        )
      )[0];

    it('records every status with the provider error code, and a late one never moves a row back', async () => {
      const rows = await sentSids(7);
      const outcomes: [string, string | undefined][] = [
        ['delivered', undefined],
        ['undelivered', '30003'],
        ['undelivered', '30005'],
        ['undelivered', '30006'],
        ['undelivered', '30007'],
        ['failed', '21610'],
        ['failed', '63016'],
      ];
      for (const [i, [status, code]] of outcomes.entries()) {
        const sid = rows[i]!.provider_sid;
        expect((await callback({ MessageSid: sid, MessageStatus: 'sent' })).status).toBe(204);
        const response = await callback({
          MessageSid: sid,
          MessageStatus: status,
          ...(code ? { ErrorCode: code } : {}),
        });
        expect(response.status).toBe(204);
        expect(await row(sid)).toEqual({ status, error_code: code ? Number(code) : null });
      }
      await callback({ MessageSid: rows[0]!.provider_sid, MessageStatus: 'sent' });
      expect((await row(rows[0]!.provider_sid))?.status).toBe('delivered');
      await callback({ MessageSid: rows[1]!.provider_sid, MessageStatus: 'queued' });
      expect((await row(rows[1]!.provider_sid))?.status).toBe('undelivered');
    });

    it('keeps a final state: a later or replayed signed callback changes neither status, code nor time', async () => {
      const rows = await sentSids(3, 100);
      const report = async (sid: string) =>
        (
          await testDb.db.query<{ status: string; error_code: number | null; status_ts: string }>(
            'SELECT status, error_code, status_ts FROM send_recipients WHERE provider_sid = $1',
            [sid],
          )
        )[0];
      const finals: [string, string | undefined][] = [
        ['failed', '30003'],
        ['undelivered', '30007'],
        ['delivered', undefined],
      ];
      for (const [i, [status, code]] of finals.entries()) {
        const sid = rows[i]!.provider_sid;
        const first = {
          MessageSid: sid,
          MessageStatus: status,
          ...(code ? { ErrorCode: code } : {}),
        };
        expect((await callback(first)).status).toBe(204);
        const settled = await report(sid);
        expect(settled).toMatchObject({ status, error_code: code ? Number(code) : null });
        // The same callback again, then every other final state and an earlier one, all signed.
        const later = [
          first,
          { MessageSid: sid, MessageStatus: 'delivered' },
          { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30005' },
          { MessageSid: sid, MessageStatus: 'failed', ErrorCode: '30006' },
          { MessageSid: sid, MessageStatus: 'sent' },
        ];
        for (const params of later) {
          expect((await callback(params)).status).toBe(204);
          expect(await report(sid)).toEqual(settled);
        }
      }
      // A late landline or unknown-number code on a settled row marks no number undeliverable.
      const marked = await testDb.db.query(
        'SELECT 1 FROM undeliverable_numbers WHERE phone_number = ANY($1::text[])',
        [rows.map((r) => r.to_number)],
      );
      expect(marked).toEqual([]);
    });

    it('refuses a callback with a bad signature and changes nothing', async () => {
      const [sent] = await sentSids(1);
      const response = await callback(
        { MessageSid: sent!.provider_sid, MessageStatus: 'failed', ErrorCode: '30007' },
        'another-token',
      );
      expect(response.status).toBe(403);
      expect(await row(sent!.provider_sid)).toEqual({ status: 'sent', error_code: null });
    });
  });

  describe('the inbound webhook', () => {
    const params = { From: '+15551230006', To: '+15550000000', Body: 'STOP', MessageSid: 'SM9' };
    const inbound = (signature: string | null) =>
      fetch(`${server.url}/api/webhooks/twilio/inbound`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature === null ? {} : { 'x-twilio-signature': signature }),
        },
        body: new URLSearchParams(params).toString(),
      });
    const optedOut = async () =>
      (await testDb.db.query('SELECT 1 FROM opt_outs WHERE phone_number = $1', [params.From]))
        .length;

    it('refuses a request without a valid X-Twilio-Signature and opts no one out', async () => {
      expect((await inbound(null)).status).toBe(403);
      const forged = twilioSignature(
        'another-token',
        `${server.url}/api/webhooks/twilio/inbound`,
        params,
      );
      expect((await inbound(forged)).status).toBe(403);
      expect(await optedOut()).toBe(0);
    });

    it('accepts a correctly signed STOP and opts the number out', async () => {
      const signature = twilioSignature(TOKEN, `${server.url}/api/webhooks/twilio/inbound`, params);
      const response = await inbound(signature);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<Response/>');
      expect(await optedOut()).toBe(1);
    });
  });

  it('delivers a confirmation code at once through Twilio, and says so when it cannot', async () => {
    await server.messaging.deliverNow({
      channel: 'sms',
      to: '+15551230007',
      body: 'Your code is 123456',
    });
    expect(received[0]!.form).toMatchObject({ To: '+15551230007', Body: 'Your code is 123456' });
    script.set('+15551230008', [{ status: 400, code: 21211 }]);
    await expect(
      server.messaging.deliverNow({ channel: 'sms', to: '+15551230008', body: 'code' }),
    ).rejects.toThrow(/21211/);
  });
});
