// Sending over HTTP: idempotency, who may send what, bad input, opt-outs; on PGlite and PostgreSQL.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signOutboxWebhook } from '../src/messaging/webhook-signature.js';
import { insertInvitations } from '../src/storage/invitations.js';
import { upsertTemplates } from '../src/storage/templates.js';
import { insertUsers } from '../src/storage/users.js';
import {
  type DbKind,
  type MessagingServer,
  openTestDb,
  phoneNumbers,
  startMessagingServer,
  type TestDb,
  waitForJob,
} from './messaging-harness.js';

const OWNER = 'user-owner';
const ADMIN = 'user-admin';
const DRIVER = 'user-driver';
const INVITEES = ['+15550001001', '+15550001002'];
const FREE_WEEK_INVITEE = '+15550001003';
const TEMPLATE = {
  id: 'tpl-1',
  name: 'welcome',
  language: 'en',
  components: [
    { type: 'BODY' as const, text: 'Your first week is waiting.' },
    { type: 'HEADER' as const, text: 'Welcome!' },
  ],
};
/** As stored: with its Content SID, which WhatsApp approved (only such a template is sent). */
const APPROVED_TEMPLATE = {
  ...TEMPLATE,
  contentSid: `HX${'c'.repeat(32)}`,
  approvalStatus: 'approved' as const,
};
const LONG_SMS = 'x'.repeat(161);
const WEBHOOK_SECRET = 'sandbox-webhook-secret-for-tests';

describe.each<DbKind>(['pglite', 'postgres'])('sending messages (%s)', (kind) => {
  let testDb: TestDb;
  let server: MessagingServer;
  let keyCounter = 0;
  const newKey = () => `key-${kind}-${++keyCounter}-${Date.now()}`;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    const { db } = testDb;
    await insertUsers(db, [
      {
        id: OWNER,
        product: 'flex',
        phone_number: '+15559990001',
        name: 'Owner',
        is_admin: true,
        role: 'owner',
        can_see_billing: true,
        can_send_multi_segment: true,
      },
      {
        id: ADMIN,
        product: 'flex',
        phone_number: '+15559990002',
        name: 'Admin',
        is_admin: true,
        role: 'support',
      },
      { id: DRIVER, product: 'flex', phone_number: '+15559990003', name: 'Driver' },
    ]);
    await insertInvitations(db, [
      ...INVITEES.map((phoneNumber) => ({
        phoneNumber: phoneNumber.slice(2),
        dateInvitedTimestamp: 1,
        freeWeek: false,
        referralCode: null,
      })),
      {
        phoneNumber: FREE_WEEK_INVITEE,
        dateInvitedTimestamp: 1,
        freeWeek: true,
        referralCode: null,
      },
    ]);
    await upsertTemplates(db, [APPROVED_TEMPLATE]);
    server = await startMessagingServer(db, {
      config: { sendRate: 0, webhookSecret: WEBHOOK_SECRET },
    });
  });

  afterAll(async () => {
    await server?.close();
    await testDb?.close();
  });

  beforeEach(async () => {
    await testDb.db.query('DELETE FROM send_recipients');
    await testDb.db.query('DELETE FROM send_jobs');
    await testDb.db.query('DELETE FROM outbox_messages');
    await testDb.db.query('DELETE FROM opt_outs');
    await testDb.db.query('DELETE FROM undeliverable_numbers');
  });

  async function call(
    method: string,
    path: string,
    options: {
      user?: string;
      key?: string | null;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.user) headers['x-test-user'] = options.user;
    if (options.key !== null && method === 'POST')
      headers['idempotency-key'] = options.key ?? newKey();
    let body: string | undefined;
    if (options.rawBody !== undefined || options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = options.rawBody ?? JSON.stringify(options.body);
    }
    const response = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : null,
      text,
      replayed: response.headers.get('idempotent-replayed'),
    };
  }

  const sendSms = (
    user: string,
    numbers: string[],
    message = 'Hello from the sandbox',
    key?: string,
  ) =>
    call('POST', '/api/flex/v1/admin/sendsms', {
      user,
      ...(key ? { key } : {}),
      body: { numbers: numbers.map((number) => ({ number })), message },
    });

  async function written() {
    const [row] = await testDb.db.query<{ jobs: number; recipients: number; outbox: number }>(
      `SELECT (SELECT count(*)::int FROM send_jobs) AS jobs,
              (SELECT count(*)::int FROM send_recipients) AS recipients,
              (SELECT count(*)::int FROM outbox_messages) AS outbox`,
    );
    return row!;
  }

  it('queues an SMS once per distinct number and the outbox receives each exactly once', async () => {
    const reply = await sendSms(OWNER, ['(555) 123-0001', '5551230001', '+1 555 123 0002']);
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({
      message: 'Message queued for 2 users.',
      queued: 2,
      skipped: [],
    });
    await waitForJob(testDb.db, reply.body.jobId);

    const progress = await call('GET', `/api/flex/v1/admin/send-jobs/${reply.body.jobId}`, {
      user: OWNER,
    });
    expect(progress.body).toMatchObject({
      total: 2,
      done: true,
      counts: { delivered: 2, queued: 0 },
    });
    const outbox = await call('GET', '/api/sandbox/outbox?to=5551230001', { user: ADMIN });
    expect(outbox.body.Items).toHaveLength(1);
    expect(outbox.body.Items[0]).toMatchObject({
      to: '+15551230001',
      body: 'Hello from the sandbox',
      channel: 'sms',
    });
    expect((await written()).outbox).toBe(2);
  });

  describe('Idempotency-Key', () => {
    it('answers a repeated key with the same job, says nothing was sent now, and sends once', async () => {
      const key = newKey();
      const first = await sendSms(OWNER, ['5551230001'], 'once', key);
      const second = await sendSms(OWNER, ['5551230001'], 'once', key);
      expect(second.status).toBe(first.status);
      expect(second.body).toMatchObject({
        jobId: first.body.jobId,
        queued: 0,
        added: 0,
        earlier: 1,
        estimatedCost: 0,
      });
      expect(second.body.message).toContain('nothing sent now');
      expect(first.replayed).toBeNull();
      expect(second.replayed).toBe('true');
      await waitForJob(testDb.db, first.body.jobId);
      expect(await written()).toEqual({ jobs: 1, recipients: 1, outbox: 1 });
    });

    it('adds only the new recipients to the job a key names, and texts nobody twice', async () => {
      const key = newKey();
      const first = await sendSms(OWNER, ['5551230001', '5551230002', '5551230003'], 'grow', key);
      expect(first.body).toMatchObject({ queued: 3, added: 3, earlier: 0 });
      const more = await sendSms(
        OWNER,
        ['5551230003', '5551230001', '5551230004', '5551230002'],
        'grow',
        key,
      );
      expect(more.status).toBe(202);
      expect(more.replayed).toBeNull();
      expect(more.body).toMatchObject({ jobId: first.body.jobId, queued: 1, added: 1, earlier: 3 });
      expect(more.body.message).toContain('3 sent earlier, 1 added.');
      await waitForJob(testDb.db, first.body.jobId);
      expect(await written()).toEqual({ jobs: 1, recipients: 4, outbox: 4 });
    });

    it('gives concurrent requests under one key one job, each number once', async () => {
      const key = newKey();
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          sendSms(
            OWNER,
            ['5551230001', '5551230002', `55512310${String(i).padStart(2, '0')}`],
            'race',
            key,
          ),
        ),
      );
      expect(new Set(replies.map((r) => r.status))).toEqual(new Set([202]));
      expect(new Set(replies.map((r) => r.body.jobId)).size).toBe(1);
      expect(replies.reduce((sum, r) => sum + r.body.added, 0)).toBe(10);
      await waitForJob(testDb.db, replies[0]!.body.jobId);
      expect(await written()).toEqual({ jobs: 1, recipients: 10, outbox: 10 });
    });

    it('refuses a key reused for other content with 409 idempotency_key_reused, naming what changed', async () => {
      const key = newKey();
      await sendSms(OWNER, ['5551230001'], 'first', key);
      const other = await sendSms(OWNER, ['5551230001', '5551230002'], 'second', key);
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({
        code: 'idempotency_key_reused',
        field: 'idempotency-key',
      });
      expect(other.body.message).toContain('the text changed');
      const later = await call('POST', '/api/flex/v1/admin/sendsms', {
        user: OWNER,
        key,
        body: {
          numbers: [{ number: '5551230002' }],
          message: 'first',
          sendAt: new Date(Date.now() + 86_400_000).toISOString(),
        },
      });
      expect(later.status).toBe(409);
      expect(later.body.message).toContain('the schedule (--at, sendAt) changed');
      expect(await written()).toMatchObject({ jobs: 1, recipients: 1 });
    });

    it('refuses a template send under the key of one with other values, naming the values', async () => {
      const key = newKey();
      const send = (values: Record<string, string>) =>
        call('POST', '/api/flex/v1/admin/sendWhatsapp', {
          user: OWNER,
          key,
          body: {
            numbers: [{ number: INVITEES[0] }],
            msgTemplate: { name: TEMPLATE.name, language: 'en', components: [], values },
          },
        });
      expect((await send({ week: '1' })).status).toBe(202);
      const other = await send({ week: '2' });
      expect(other.status).toBe(409);
      expect(other.body.message).toContain('the template values changed');
      expect(other.body.message).not.toContain('the text changed');
    });

    it('finds a job by the start of its id and lists the jobs a key named', async () => {
      const key = newKey();
      const sent = await sendSms(OWNER, ['5551230001'], 'find me', key);
      const id: string = sent.body.jobId;
      const byPrefix = await call('GET', `/api/flex/v1/admin/send-jobs/${id.slice(0, 8)}?limit=0`, {
        user: OWNER,
      });
      expect(byPrefix.body).toMatchObject({ jobId: id, total: 1 });
      const none = await call('GET', '/api/flex/v1/admin/send-jobs/zz%25', { user: OWNER });
      expect(none.status).toBe(404);
      const listed = await call(
        'GET',
        `/api/flex/v1/admin/send-jobs?key=${encodeURIComponent(key)}`,
        { user: OWNER },
      );
      expect(listed.body.Items.map((j: { jobId: string }) => j.jobId)).toEqual([id]);
      await waitForJob(testDb.db, id);
    });

    it('refuses a send without the header, or with one too long, and writes nothing', async () => {
      const missing = await call('POST', '/api/flex/v1/admin/sendsms', {
        user: OWNER,
        key: null,
        body: { numbers: [{ number: '5551230001' }], message: 'hi' },
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 'validation' });
      expect(missing.body.message).toContain('Idempotency-Key');
      const tooLong = await sendSms(OWNER, ['5551230001'], 'hi', 'k'.repeat(201));
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.message).toContain('Idempotency-Key');
      expect(await written()).toEqual({ jobs: 0, recipients: 0, outbox: 0 });
    });
  });

  describe('who may send', () => {
    it('refuses a signed-out caller with 401 and a non-admin with 403 on every messaging route', async () => {
      const routes: [string, string, unknown?][] = [
        [
          'POST',
          '/api/flex/v1/admin/sendsms',
          { numbers: [{ number: INVITEES[0] }], message: 'hi' },
        ],
        [
          'POST',
          '/api/flex/v1/admin/sendWhatsapp',
          { numbers: [{ number: INVITEES[0] }], msgTemplate: TEMPLATE },
        ],
        ['GET', '/api/flex/v1/admin/sendWhatsapp'],
        ['GET', '/api/sandbox/outbox'],
        ['GET', '/api/flex/v1/admin/send-jobs/some-job'],
      ];
      for (const [method, path, body] of routes) {
        const anonymous = await call(method, path, body === undefined ? {} : { body });
        expect(anonymous.status, `${method} ${path}`).toBe(401);
        const driver = await call(
          method,
          path,
          body === undefined ? { user: DRIVER } : { user: DRIVER, body },
        );
        expect(driver.status, `${method} ${path}`).toBe(403);
        expect(driver.body.code).toBe('forbidden');
      }
      expect(await written()).toEqual({ jobs: 0, recipients: 0, outbox: 0 });
    });

    it('lets an admin who is not owner message pending invitees only', async () => {
      const toInvitees = await sendSms(ADMIN, INVITEES);
      expect(toInvitees.status).toBe(202);
      expect(toInvitees.body.queued).toBe(2);

      const toOthers = await sendSms(ADMIN, [INVITEES[0]!, '5551230009']);
      expect(toOthers.status).toBe(403);
      expect(toOthers.body.message).toContain('owner');
      const toFreeWeek = await sendSms(ADMIN, [FREE_WEEK_INVITEE]);
      expect(toFreeWeek.status).toBe(403);
      expect((await written()).jobs).toBe(1);
    });

    it("applies 'Limit characters' to a multi-segment SMS without the permission", async () => {
      const refused = await sendSms(ADMIN, INVITEES, LONG_SMS);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain("'Limit characters' applies");
      expect(refused.body.message).toContain('2 SMS segments');
      expect((await written()).jobs).toBe(0);
      expect((await sendSms(OWNER, INVITEES, LONG_SMS)).status).toBe(202);
    });

    it('needs the billing-details permission for WhatsApp sends and the template list', async () => {
      const { id: _id, ...msgTemplate } = TEMPLATE;
      const body = { numbers: [{ number: INVITEES[0] }], msgTemplate };
      const send = await call('POST', '/api/flex/v1/admin/sendWhatsapp', { user: ADMIN, body });
      expect(send.status).toBe(403);
      expect(send.body.message).toContain('billing');
      expect((await call('GET', '/api/flex/v1/admin/sendWhatsapp', { user: ADMIN })).status).toBe(
        403,
      );
      const list = await call('GET', '/api/flex/v1/admin/sendWhatsapp', { user: OWNER });
      expect(list.body).toEqual({
        Items: [{ ...APPROVED_TEMPLATE, variables: [], rejectionReason: null }],
      });
      expect((await written()).jobs).toBe(0);
    });
  });

  it('sends a WhatsApp template as its header then its body, and refuses an unknown template', async () => {
    const { id: _id, ...msgTemplate } = TEMPLATE;
    const sent = await call('POST', '/api/flex/v1/admin/sendWhatsapp', {
      user: OWNER,
      body: { numbers: [{ number: INVITEES[0] }], msgTemplate },
    });
    expect(sent.status).toBe(202);
    await waitForJob(testDb.db, sent.body.jobId);
    const outbox = await call('GET', `/api/sandbox/outbox?to=${encodeURIComponent(INVITEES[0]!)}`, {
      user: OWNER,
    });
    expect(outbox.body.Items[0]).toMatchObject({
      channel: 'whatsapp',
      body: 'Welcome!\n\nYour first week is waiting.',
      template: { name: 'welcome', language: 'en' },
    });

    const unknown = await call('POST', '/api/flex/v1/admin/sendWhatsapp', {
      user: OWNER,
      body: { numbers: [{ number: INVITEES[0] }], msgTemplate: { ...msgTemplate, language: 'es' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('msgTemplate');
    expect((await written()).jobs).toBe(1);
  });

  describe('bad input gets a 400 naming the field, and nothing is written', () => {
    it.each([
      ['malformed JSON', { rawBody: '{"numbers": [' }, /JSON/i],
      ['a wrong type', { body: { numbers: 'all', message: 'hi' } }, /numbers/],
      [
        'an unknown field',
        { body: { numbers: [{ number: '5551230001' }], message: 'hi', sender: 'me' } },
        /sender/,
      ],
      [
        'an empty message',
        { body: { numbers: [{ number: '5551230001' }], message: '' } },
        /message/,
      ],
    ])('%s', async (_name, input, pattern) => {
      const reply = await call('POST', '/api/flex/v1/admin/sendsms', { user: OWNER, ...input });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(pattern);
      expect(await written()).toEqual({ jobs: 0, recipients: 0, outbox: 0 });
    });

    it('a bad outbox query', async () => {
      const reply = await call('GET', '/api/sandbox/outbox?limit=0', { user: OWNER });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain('limit');
    });
  });

  describe('the inbound webhook', () => {
    const inbound = (from: string, text: string, secret: string | null = WEBHOOK_SECRET) => {
      const url = `${server.url}/api/webhooks/twilio/inbound`;
      const params = {
        From: from,
        To: '+15550000000',
        Body: text,
        MessageSid: `SM${Math.random().toString(36).slice(2)}`,
      };
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(secret === null
            ? {}
            : { 'x-blockcatch-signature': signOutboxWebhook(secret, url, params) }),
        },
        body: new URLSearchParams(params).toString(),
      });
    };
    const optedOut = async (number: string) =>
      (await testDb.db.query('SELECT 1 FROM opt_outs WHERE phone_number = $1', [number])).length;

    it('refuses an unsigned or wrongly signed STOP with 403 and opts no one out', async () => {
      const unsigned = await inbound('+15551230009', 'STOP', null);
      expect(unsigned.status).toBe(403);
      const forged = await inbound('+15551230009', 'STOP', 'not-the-sandbox-secret');
      expect(forged.status).toBe(403);
      expect(await optedOut('+15551230009')).toBe(0);
    });

    it('skips and reports a number that replied STOP, until it replies START', async () => {
      const stop = await inbound('+15551230001', ' stop ');
      expect(stop.status).toBe(200);
      expect(stop.headers.get('content-type')).toContain('text/xml');
      expect(await stop.text()).toContain('<Response/>');

      const reply = await sendSms(OWNER, ['5551230001', '5551230002']);
      expect(reply.body).toMatchObject({
        queued: 1,
        message: 'Message queued for 1 users. Skipped 1 (1 opted-out).',
        skipped: [{ number: '+15551230001', reason: 'opted-out' }],
      });
      await waitForJob(testDb.db, reply.body.jobId);
      const progress = await call('GET', `/api/flex/v1/admin/send-jobs/${reply.body.jobId}`, {
        user: OWNER,
      });
      expect(progress.body.counts).toMatchObject({ delivered: 1, 'skipped-opted-out': 1 });

      await inbound('+15551230001', 'START');
      const again = await sendSms(OWNER, ['5551230001']);
      expect(again.body).toMatchObject({ queued: 1, skipped: [] });
    });
  });

  it('skips one malformed number among 1,000, reports it, and delivers the other 999', async () => {
    const numbers = [...phoneNumbers(500), 'not-a-number', ...phoneNumbers(499, 500)];
    const reply = await sendSms(OWNER, numbers);
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({
      queued: 999,
      skipped: [{ number: 'not-a-number', reason: 'invalid' }],
      message: 'Message queued for 999 users. Skipped 1 (1 invalid).',
    });
    await waitForJob(testDb.db, reply.body.jobId, 30_000);
    const report = await call('GET', `/api/flex/v1/admin/send-jobs/${reply.body.jobId}?after=999`, {
      user: OWNER,
    });
    expect(report.body).toMatchObject({
      total: 1000,
      counts: { delivered: 999, 'skipped-invalid': 1 },
      more: false,
    });
    expect(report.body.recipients[0]).toMatchObject({
      to: 'not-a-number',
      status: 'skipped-invalid',
    });
    expect((await written()).outbox).toBe(999);
  });

  it('reports each outbox test number with its provider error and meaning, and skips a known landline next time', async () => {
    const reply = await sendSms(OWNER, [
      '5551230001',
      '+15550030003',
      '+15550030006',
      '+15550063016',
    ]);
    await waitForJob(testDb.db, reply.body.jobId);
    const report = await call('GET', `/api/flex/v1/admin/send-jobs/${reply.body.jobId}`, {
      user: OWNER,
    });
    expect(
      report.body.recipients.map(
        (r: { status: string; errorCode: number | null; error: string | null }) => [
          r.status,
          r.errorCode,
          r.error,
        ],
      ),
    ).toEqual([
      ['delivered', null, null],
      ['undelivered', 30003, 'unreachable (phone off or out of coverage)'],
      ['undelivered', 30006, 'landline or unreachable carrier'],
      ['failed', 63016, 'outside the WhatsApp 24-hour window (send a template)'],
    ]);
    expect(report.body).toMatchObject({ segments: 3, estimatedCost: 0.0249 });

    const again = await sendSms(OWNER, ['5551230001', '+15550030006']);
    expect(again.body).toMatchObject({
      queued: 1,
      skipped: [{ number: '+15550030006', reason: 'landline' }],
    });
    const jobs = await call('GET', '/api/flex/v1/admin/send-jobs?limit=1', { user: OWNER });
    expect(jobs.body.Items).toHaveLength(1);
    expect(jobs.body.Items[0]).toMatchObject({ jobId: again.body.jobId, total: 2 });
  });

  it('delivers a large send to every recipient', async () => {
    const numbers = phoneNumbers(250);
    const reply = await sendSms(OWNER, numbers);
    expect(reply.body.queued).toBe(250);
    await waitForJob(testDb.db, reply.body.jobId, 30_000);
    const rows = await testDb.db.query<{ n: number; d: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT to_number)::int AS d FROM outbox_messages',
    );
    expect(rows[0]).toEqual({ n: 250, d: 250 });
  });
});
