// The SDK's gateway client against the real sandbox gateway, through a loopback proxy that drops
// connections, hangs requests, and answers 500, 503 and 429: nothing is lost and nothing is sent twice.

import {
  ConfigError,
  createAuth,
  createGatewayClient,
  type DriverFilters,
  EXPORT_CSV_HEADER,
  NetworkError,
  ResponseShapeError,
  sendFailureMessage,
  sendInBatches,
  TimeoutError,
} from '@blockcatch/sdk';
import { createUndiciTransport } from '@blockcatch/sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminClient,
  authOptions,
  createAdmin,
  deliveredTo,
  type FaultProxy,
  latestCode,
  type ProxyAction,
  type Sandbox,
  startFaultProxy,
  startSandbox,
} from './sdk-harness.js';
import { eventually } from './support/eventually.js';

const RESPONSE_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
let sandbox: Sandbox;
let proxy: FaultProxy;
let admin: Awaited<ReturnType<typeof adminClient>>;
const transport = createUndiciTransport();

const recipients = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `+1${prefix}${String(i).padStart(4, '0')}`);

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await createAdmin(sandbox.gateway);
  admin = await adminClient(sandbox);
  proxy = await startFaultProxy(sandbox.url);
}, 60_000);

afterAll(async () => {
  admin?.auth.dispose();
  await transport.close();
  await proxy?.close();
  await sandbox?.close();
});

function proxiedClient(options: { timeoutMs?: number } = {}) {
  return createGatewayClient({
    baseUrl: proxy.url,
    auth: admin.auth,
    transport,
    retry: { baseDelayMs: 20, maxRetries: 5, maxElapsedMs: 20_000 },
    ...options,
  });
}

describe('reads', () => {
  it('streams the users export through the client’s own transport', async () => {
    const answer = await proxiedClient().exportUsers({ product: 'flex', format: 'csv' });
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of answer.body) text += decoder.decode(chunk, { stream: true });
    expect(text.split('\n')[0]).toBe(EXPORT_CSV_HEADER.trimEnd());
    expect(text.split('\n').length).toBeGreaterThan(2);
  });

  it('reads the version id and CDN id from the health headers', async () => {
    expect(await proxiedClient().health()).toEqual({
      versionId: 'sandbox-1',
      cdnId: 'sandbox-cdn',
    });
  });

  it('retries a GET through a dropped connection, a 503 and a 429 with Retry-After', async () => {
    const faults = ['drop', 503, 429] as const;
    proxy.plan = (req) => {
      if (!req.path.startsWith('/api/flex/v1/user')) return { kind: 'forward' };
      const fault = faults[req.seen];
      if (fault === 'drop') return { kind: 'drop' };
      if (fault === 503) return { kind: 'status', status: 503 };
      if (fault === 429) return { kind: 'status', status: 429, headers: { 'retry-after': '1' } };
      return { kind: 'forward' };
    };
    try {
      const started = Date.now();
      expect((await proxiedClient().me()).name).toBe(ADMIN.name);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      proxy.plan = () => ({ kind: 'forward' });
    }
  }, 20_000);

  it('gives a ResponseShapeError naming the field when the gateway answers a wrong shape', async () => {
    proxy.plan = (req) =>
      req.path.startsWith('/api/flex/v1/admin/invitations')
        ? { kind: 'rewrite', body: () => JSON.stringify({ Items: [{ phoneNumber: 5 }] }) }
        : req.path.startsWith('/api/status/health')
          ? { kind: 'rewrite', body: (b) => b, headers: { 'x-amz-cf-id': '' } }
          : { kind: 'forward' };
    try {
      const error = await proxiedClient()
        .invitations()
        .catch((e) => e);
      expect(error).toBeInstanceOf(ResponseShapeError);
      expect(error.path).toBe('Items.0.phoneNumber');
      const health = await proxiedClient()
        .health()
        .catch((e) => e);
      expect(health).toBeInstanceOf(ResponseShapeError);
      expect(health.path).toBe('x-amz-cf-id');
    } finally {
      proxy.plan = () => ({ kind: 'forward' });
    }
  });

  it('times out a request that hangs, and retries a GET after the timeout', async () => {
    proxy.plan = (req) =>
      req.path.startsWith('/api/flex/v1/admin/referrals') && req.seen === 0
        ? { kind: 'hang' }
        : { kind: 'forward' };
    try {
      await expect(proxiedClient({ timeoutMs: 2_000 }).referrals()).resolves.toBeInstanceOf(Array);
      const noRetry = createGatewayClient({
        baseUrl: proxy.url,
        auth: admin.auth,
        timeoutMs: 100,
        retry: false,
      });
      proxy.plan = () => ({ kind: 'hang' });
      await expect(noRetry.referrals()).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      proxy.plan = () => ({ kind: 'forward' });
    }
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    // The request hangs until the client lets go: only the abort can end it.
    proxy.plan = () => {
      controller.abort();
      return { kind: 'hang' };
    };
    try {
      const error = await proxiedClient()
        .me({ signal: controller.signal })
        .catch((e) => e);
      expect(error.code).toBe('aborted');
    } finally {
      proxy.plan = () => ({ kind: 'forward' });
    }
  });

  it('reports a refused connection as a NetworkError', async () => {
    const dead = createGatewayClient({ baseUrl: 'http://127.0.0.1:1', retry: false });
    await expect(dead.health()).rejects.toBeInstanceOf(NetworkError);
  });
});

describe('sends under faults', () => {
  it('delivers every recipient exactly once through drops, 500s, 503s, 429s and delays', async () => {
    const numbers = recipients('305555', 60);
    const message = `Faults test ${Date.now()}`;
    // Part n (told by its first number: every part goes under the job's one key) meets fault n on
    // its first try; the "after-forward" faults reach the gateway first.
    const faults: ProxyAction[] = [
      { kind: 'drop' },
      { kind: 'drop-after-forward' },
      { kind: 'status', status: 503 },
      { kind: 'status-after-forward', status: 500 },
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'hang' },
    ];
    const firstTry = new Set<string>();
    proxy.plan = (req) => {
      if (req.method !== 'POST' || !req.path.startsWith('/api/flex/v1/admin/sendsms')) {
        return { kind: 'forward' };
      }
      const first = (JSON.parse(req.body) as { numbers: { number: string }[] }).numbers[0]!.number;
      if (firstTry.has(first)) return { kind: 'forward' };
      firstTry.add(first);
      return faults[numbers.indexOf(first) / 10] ?? { kind: 'forward' };
    };
    try {
      const progress: number[] = [];
      // The timeout only has to end the hung request; it is long enough that a slow machine's
      // ordinary answers never reach it, or every retry of a part could time out too.
      const summary = await sendInBatches(proxiedClient({ timeoutMs: 3_000 }), numbers, message, {
        key: `faults-${Date.now()}`,
        batchSize: 10,
        onProgress: (p) => progress.push(p.recipientsDone),
      });
      // A part the gateway took before its answer was lost counts, on its retry, as sent earlier.
      expect(summary.recipientsDone).toBe(60);
      expect(summary.added + summary.earlier).toBe(60);
      expect(summary.earlier).toBeGreaterThanOrEqual(20);
      expect(progress.at(-1)).toBe(60);
      const job = await admin.client.sends.show(summary.jobId!, { limit: 0 });
      expect(job.total).toBe(60);
    } finally {
      proxy.plan = () => ({ kind: 'forward' });
    }
    const sent = await deliveredTo(sandbox, message, numbers.length);
    expect(sent.sort()).toEqual([...numbers].sort());
  }, 40_000);

  it('resumes an interrupted send with another batch size, sending only the rest, each once', async () => {
    const numbers = recipients('305566', 50);
    const message = `Resume test ${Date.now()}`;
    const key = `resume-${Date.now()}`;
    // The gateway takes the third part but its answer never arrives, and retries are off.
    let posts = 0;
    proxy.plan = (req) =>
      req.method === 'POST' && req.path.startsWith('/api/flex/v1/admin/sendsms') && posts++ === 2
        ? { kind: 'drop-after-forward' }
        : { kind: 'forward' };
    const fragile = createGatewayClient({
      baseUrl: proxy.url,
      auth: admin.auth,
      retry: false,
    });
    await expect(
      sendInBatches(fragile, numbers, message, { key, batchSize: 10 }),
    ).rejects.toBeInstanceOf(NetworkError);
    proxy.plan = () => ({ kind: 'forward' });

    const summary = await sendInBatches(proxiedClient(), numbers, message, {
      key,
      batchSize: 7,
    });
    expect(summary).toMatchObject({ earlier: 30, added: 20, queued: 20, replayed: false });
    const sent = await deliveredTo(sandbox, message, numbers.length);
    expect(sent.sort()).toEqual([...numbers].sort());
  }, 40_000);

  it("fills in the success text, and reads the server's message on a failed send", async () => {
    const client = proxiedClient();
    const ok = await client.sendSms(
      { numbers: [{ number: '+13055770001' }], message: 'One more' },
      { idempotencyKey: `single-${Date.now()}` },
    );
    expect(ok.message).toMatch(/1 users?\./);
    // A malformed number alone is skipped, not refused; an empty message is refused.
    const skipped = await client.sendSms(
      { numbers: [{ number: '12' }], message: 'x' },
      { idempotencyKey: `skip-${Date.now()}` },
    );
    expect(skipped).toMatchObject({ queued: 0, skipped: [{ number: '12', reason: 'invalid' }] });
    const bad = await client
      .sendSms(
        { numbers: [{ number: '+13055770001' }], message: '' },
        { idempotencyKey: `bad-${Date.now()}` },
      )
      .catch((e) => e);
    expect(bad.status).toBe(400);
    expect(sendFailureMessage(bad)).toBe(bad.serverMessage);
    expect(sendFailureMessage(new Error('x'))).toBe('An error has occurred.');
  });

  it('reads a send job and a driver is refused the admin tables with a 403', async () => {
    const client = proxiedClient();
    const result = await client.sendSms(
      { numbers: [{ number: '+13055770002' }], message: 'Job check' },
      { idempotencyKey: `job-${Date.now()}` },
    );
    const report = await client.sends.show(result.jobId!);
    expect(report.total).toBe(1);
    expect(report.recipients).toEqual([
      expect.objectContaining({ to: '+13055770002', segments: 1 }),
    ]);
    expect((await client.sends.list({ limit: 5 })).map((j) => j.jobId)).toContain(result.jobId);

    const phone = '+13055779999';
    await sandbox.gateway.db.query(
      `INSERT INTO users (id, product, phone_number, name, create_date_ts)
       VALUES (gen_random_uuid()::text, 'flex', $1, 'Dan', $2)`,
      [phone, Date.now()],
    );
    await sandbox.gateway.identity.ensureAccount({
      phoneNumber: phone,
      password: 'Driver-pass-1',
      name: 'Dan',
    });
    const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    await auth.signIn(phone, 'Driver-pass-1');
    const driver = createGatewayClient({ baseUrl: sandbox.url, auth });
    await expect(driver.flex.users()).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    auth.dispose();
  });
});

describe('a driver through the resources', () => {
  const phone = '+13055778800';
  let auth: ReturnType<typeof createAuth>;
  /** Straight to the gateway. */
  let driver: ReturnType<typeof createGatewayClient>;
  /** Through the fault proxy, with quick retries. */
  let proxied: ReturnType<typeof createGatewayClient>;

  beforeAll(async () => {
    await sandbox.gateway.db.query(
      `INSERT INTO users (id, product, phone_number, name, create_date_ts)
       VALUES (gen_random_uuid()::text, 'flex', $1, 'Rita Resource', $2)`,
      [phone, Date.now()],
    );
    await sandbox.gateway.identity.ensureAccount({
      phoneNumber: phone,
      password: 'Driver-pass-2',
      name: 'Rita Resource',
    });
    auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
    await auth.signIn(phone, 'Driver-pass-2');
    driver = createGatewayClient({ baseUrl: sandbox.url, auth });
    proxied = createGatewayClient({
      baseUrl: proxy.url,
      auth,
      transport,
      retry: { baseDelayMs: 20, maxRetries: 5, maxElapsedMs: 20_000 },
    });
  });
  afterAll(() => {
    auth?.dispose();
    proxy.plan = () => ({ kind: 'forward' });
  });

  it('connects the delivery account with the texted code, then disconnects it', async () => {
    const challenge = await driver.platform.signIn({
      email: 'rita@example.com',
      password: 'flex-pw-1',
    });
    expect(challenge.sentTo).toBe(phone);
    const code = await eventually(() => latestCode(admin.client, phone));
    await driver.platform.verify({ challengeId: challenge.challengeId, code });
    expect(await driver.platform.state()).toEqual({ proxyInstalled: true, pendingCode: false });
    await driver.platform.disconnect();
    expect((await driver.platform.state()).proxyInstalled).toBe(false);
  });

  it('saves the filters and reads them back; a saved PUT is repeated through a 503', async () => {
    expect(await driver.driver.settings()).toBeNull();
    const [area] = await driver.platform.serviceAreas();
    const allDay = [{ start: '00:00', end: '24:00' }];
    const filters: DriverFilters = {
      warehouses: [area!.id],
      minHourlyPay: 20,
      minBlockPay: 50,
      timeBufferMinutes: 45,
      weeklySchedule: { mon: allDay, tue: allDay, wed: [], thu: [], fri: allDay, sat: [], sun: [] },
      timeZone: area!.timeZone,
    };
    const puts: number[] = [];
    proxy.plan = (req) => {
      if (req.method !== 'PUT' || !req.path.startsWith('/api/flex/v1/settings')) {
        return { kind: 'forward' };
      }
      puts.push(req.seen);
      return req.seen === 0 ? { kind: 'status', status: 503 } : { kind: 'forward' };
    };
    const saved = await proxied.driver.saveSettings(filters);
    proxy.plan = () => ({ kind: 'forward' });
    expect(puts).toEqual([0, 1]);
    // Fields the driver left out come back with their defaults: no block-length limits, no station rules.
    const stored = { ...filters, minBlockHours: 0, maxBlockHours: null, stationRules: {} };
    expect(saved).toEqual({ Item: stored, setupComplete: true });
    expect(await driver.driver.settings()).toEqual(stored);
  });

  it('turns the system on and off, a PUT whose answer was lost landing once', async () => {
    proxy.plan = (req) =>
      req.method === 'PUT' && req.path.startsWith('/api/flex/v1/status') && req.seen === 0
        ? { kind: 'drop-after-forward' }
        : { kind: 'forward' };
    expect(await proxied.driver.setStatus('start')).toBe('start');
    proxy.plan = () => ({ kind: 'forward' });
    const on = await driver.driver.dashboard();
    expect(on).toMatchObject({ status: 'start', systemOn: true, setupComplete: true });
    // Not connected (the last test disconnected): on, but not searching, and saying why.
    expect(on.notSearchingBecause).toBe('not-connected');
    expect(await driver.driver.setStatus('stop')).toBe('stop');
    expect(await driver.driver.dashboard()).toMatchObject({ systemOn: false, searching: false });
    expect(await driver.driver.offers({ kind: 'won' })).toEqual([]);
    expect((await driver.driver.calendar()).Items).toEqual([]);
  });

  it('opens one hosted checkout however often its key is replayed, and the paid week shows everywhere', async () => {
    const price = await driver.payments.price();
    expect(price.provider).toBe('sandbox');
    const key = `checkout-${Date.now()}`;
    const body = { mode: 'payment' as const, weeks: 1 };
    // The gateway opens the checkout, the answer is lost: the client repeats the POST under the key.
    const posts: string[] = [];
    proxy.plan = (req) => {
      if (req.method !== 'POST' || !req.path.startsWith('/api/flex/v1/checkout')) {
        return { kind: 'forward' };
      }
      posts.push(String(req.headers['idempotency-key']));
      return posts.length === 1 ? { kind: 'drop-after-forward' } : { kind: 'forward' };
    };
    const checkout = await proxied.payments.checkout(body, { idempotencyKey: key });
    proxy.plan = () => ({ kind: 'forward' });
    expect(posts).toEqual([key, key]);
    expect(checkout).toMatchObject({
      mode: 'payment',
      weeks: 1,
      amountCents: price.weeklyPriceCents,
    });
    const replay = await driver.payments.checkout(body, { idempotencyKey: key });
    expect(replay.id).toBe(checkout.id);

    // The driver types the card on the sandbox processor's page, which sends them back paid.
    const page = await fetch(new URL(checkout.url, sandbox.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' }),
    });
    expect(page.status).toBe(303);
    expect((await driver.payments.getCheckout(checkout.id)).status).toBe('complete');
    const mine = await driver.payments.list();
    expect(mine).toHaveLength(1);
    const paid = { payment: mine[0] as NonNullable<(typeof mine)[0]> };
    expect(paid.payment).toMatchObject({
      weeks: 1,
      amountCents: price.weeklyPriceCents,
      cardLast4: '4242',
      status: 'succeeded',
    });
    expect(await driver.payments.get(paid.payment.id)).toEqual(paid.payment);
    const billing = await driver.payments.billing();
    expect(billing.invoices.map((p) => p.id)).toEqual([paid.payment.id]);
    const dashboard = await driver.driver.dashboard();
    expect(dashboard).toMatchObject({ goodStanding: true, expired: false });
    expect(dashboard.expirationDateTimestamp).toBe(paid.payment.expirationDateTimestamp);

    // The admin sees the same payment in today's billing report and the driver's dashboard.
    const timeZone = 'America/New_York';
    const today = new Date().toLocaleDateString('en-CA', { timeZone });
    const report = await admin.client.admin.billing({ from: today, timeZone });
    expect(report.Items.filter((p) => p.id === paid.payment.id)).toHaveLength(1);
    expect(await admin.client.admin.userDashboard(phone)).toEqual(dashboard);
    const calendar = await admin.client.admin.userCalendar(phone);
    expect(calendar.timeZone).toBe((await driver.driver.settings())?.timeZone);
  });

  it('invites a friend once, and reads the invitation back', async () => {
    const first = await driver.driver.invite('(305) 555-0177');
    expect(first).toMatchObject({
      phoneNumber: '+13055550177',
      status: 'invited',
      freeWeek: false,
    });
    // The text moves on from 'queued' as the worker delivers it; the invitation itself stays one.
    const { smsStatus: _status, ...invitation } = first;
    const again = await driver.driver.invite('+1 305 555 0177');
    expect(again).toMatchObject(invitation);
    const mine = await driver.driver.invitations();
    expect(mine.referralCode).toBe(first.referralCode);
    expect(mine.Items).toEqual([expect.objectContaining(invitation)]);
    expect(await driver.driver.invitation('+13055550177')).toMatchObject(invitation);
    await expect(driver.driver.reseller()).rejects.toMatchObject({ status: 403 });
  });
});

describe('encrypted answers', () => {
  let encrypted: Sandbox;
  beforeAll(async () => {
    encrypted = await startSandbox({ responseKey: RESPONSE_KEY });
    await createAdmin(encrypted.gateway);
  }, 60_000);
  afterAll(async () => {
    await encrypted?.close();
  });

  it('decrypts the encrypted user tables with the response key, and says what to set without it', async () => {
    const { auth } = await adminClient(encrypted);
    try {
      const keyed = createGatewayClient({
        baseUrl: encrypted.url,
        auth,
        responseKey: RESPONSE_KEY,
      });
      const users = await keyed.flex.users();
      expect(users.some((u) => u.phoneNumber === ADMIN.phone)).toBe(true);
      const keyless = createGatewayClient({ baseUrl: encrypted.url, auth });
      const error = await keyless.flex.users().catch((e) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(/responseKey/);
    } finally {
      auth.dispose();
    }
  });
});
