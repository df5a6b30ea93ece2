// A rotated Twilio auth token: a 401 (error 20003) pauses the sender instead of failing the send.
// Recipients stay queued, the owner is alerted once (an error log line for the owner), and when
// the credentials work again every recipient is sent exactly once.
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import {
  type MessagingServer,
  openTestDb,
  phoneNumbers,
  sendAsOwner,
  startMessagingServer,
  type TestDb,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const SID = 'AC0123456789abcdef';
const TOKEN = 'test-auth-token';
/** The owner withOwner adds: the one texted about the sender. */
const OWNER_PHONE = '+15559990001';

let fake: Server;
let fakeUrl: string;
/** Whether the fake accepts our token; false answers 401 with Twilio's code 20003. */
let tokenValid = false;
let refusals = 0;
const accepted: string[] = [];
const bodies: { to: string; body: string }[] = [];
let testDb: TestDb;
let server: MessagingServer;
const logLines: { level: number; msg: string; sender?: string; alert?: string }[] = [];

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    res.setHeader('content-type', 'application/json');
    if (!tokenValid) {
      refusals++;
      res.writeHead(401);
      res.end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }));
      return;
    }
    accepted.push(form.To!);
    bodies.push({ to: form.To!, body: form.Body ?? '' });
    res.writeHead(201);
    res.end(JSON.stringify({ sid: `SM${String(accepted.length).padStart(32, '0')}` }));
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const address = fake.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  fakeUrl = `http://127.0.0.1:${address.port}`;
  testDb = await openTestDb('pglite');
  await withOwner(testDb);
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  server = await startMessagingServer(testDb.db, {
    retryBaseMs: 20,
    pauseProbeMs: 300,
    logger: { level: 'warn', stream },
    config: {
      sendRate: 0,
      messageProvider: 'twilio',
      twilio: {
        accountSid: SID,
        authToken: TOKEN,
        from: '+15550000000',
        baseUrl: fakeUrl,
        statusCallbackUrl: 'https://gateway.example/api/webhooks/twilio/status',
      },
    },
  });
});

afterAll(async () => {
  await server?.close();
  await testDb?.close();
  await new Promise((resolve) => fake?.close(resolve));
});

it('pauses the sender on 401/20003, fails no one, alerts the owner once, and resumes with every recipient sent once', async () => {
  const numbers = phoneNumbers(40);
  const { jobId } = await sendAsOwner(server.url, numbers);

  // Paused: the provider refused at least two probes, and every recipient is still queued.
  await eventually(async () => {
    const [paused] = await testDb.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM paused_senders',
    );
    expect(paused!.n).toBe(1);
    expect(refusals).toBeGreaterThan(40);
  });
  const states = await testDb.db.query<{ status: string; n: number; attempts: number }>(
    `SELECT status, count(*)::int AS n, max(attempts)::int AS attempts FROM send_recipients
     WHERE job_id = $1 GROUP BY status`,
    [jobId],
  );
  expect(states.every((s) => s.status === 'queued' || s.status === 'sending')).toBe(true);
  expect(states.reduce((sum, s) => sum + s.n, 0)).toBe(40);
  // Refusals do not use up the recipients' attempts, however long the pause.
  expect(Math.max(...states.map((s) => s.attempts))).toBeLessThanOrEqual(1);
  const alerts = logLines.filter((l) => l.alert === 'owner' && l.level === 50);
  expect(alerts).toHaveLength(1);
  expect(alerts[0]!.msg).toContain('TWILIO_AUTH_TOKEN');
  expect(alerts[0]!.sender).toBe('+15550000000');
  // The owner's text is queued as an alert, waiting for the same sender like everything else.
  const ownerAlerts = await testDb.db.query<{ status: string; lane: number }>(
    `SELECT r.status, r.lane FROM send_recipients r JOIN send_jobs j ON j.id = r.job_id
     WHERE j.idempotency_key LIKE 'alert:senderPaused:%' AND r.to_number = $1`,
    [OWNER_PHONE],
  );
  expect(ownerAlerts).toEqual([{ status: expect.stringMatching(/queued|sending/), lane: 0 }]);

  // The token works again: the next probe resumes the sender and everyone is sent, once.
  tokenValid = true;
  await waitForJob(testDb.db, jobId, 30_000);
  expect(accepted.filter((to) => to !== OWNER_PHONE).sort()).toEqual([...numbers].sort());
  // The owner was texted that the sender paused, then that it resumed: once each.
  await eventually(() => {
    const toOwner = bodies.filter((b) => b.to === OWNER_PHONE).map((b) => b.body);
    expect(toOwner).toHaveLength(2);
    expect(
      toOwner.filter((b) => b.includes('paused') && b.includes('TWILIO_AUTH_TOKEN')),
    ).toHaveLength(1);
    expect(toOwner.filter((b) => b.includes('again'))).toHaveLength(1);
  });
  const [sent] = await testDb.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM send_recipients WHERE job_id = $1 AND status = 'sent'",
    [jobId],
  );
  expect(sent!.n).toBe(40);
  const [paused] = await testDb.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM paused_senders',
  );
  expect(paused!.n).toBe(0);
  expect(logLines.some((l) => l.alert === 'owner' && l.msg.includes('resumed'))).toBe(true);
});
