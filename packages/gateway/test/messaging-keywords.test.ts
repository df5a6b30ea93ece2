// Keywords against a running gateway with the Twilio provider (a fake Twilio on 127.0.0.1) and
// signed inbound webhooks: every keyword in English and Spanish, answered in its language; STOP to
// marketing's own sender stops marketing only, with one sender STOP stops everything; HELP once a
// day per number.
import { createServer, type Server } from 'node:http';
import { KEYWORDS, type KeywordIntent, type KeywordLanguage } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { KEYWORD_ANSWERS } from '../src/messaging/inbound.js';
import { twilioSignature } from '../src/messaging/webhook-signature.js';
import {
  type MessagingServer,
  OWNER,
  openTestDb,
  sendAsOwner,
  startMessagingServer,
  type TestDb,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const SID = 'AC0123456789abcdef';
const TOKEN = 'test-auth-token';
const ACCOUNT = '+15550000000';
const MARKETING = '+15550000009';

let fake: Server;
let fakeUrl: string;
/** Every message the fake Twilio accepted. */
const sent: Record<string, string>[] = [];

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    sent.push(form);
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ sid: `SM${String(sent.length).padStart(32, '0')}`, status: 'queued' }),
    );
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const address = fake.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  fakeUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => fake.close(() => resolve()));
});

async function start(marketingSender: string | undefined, now?: () => number) {
  const testDb = await openTestDb('pglite');
  await withOwner(testDb);
  const server = await startMessagingServer(testDb.db, {
    config: {
      sendRate: 0,
      messageProvider: 'twilio',
      twilio: {
        accountSid: SID,
        authToken: TOKEN,
        from: ACCOUNT,
        baseUrl: fakeUrl,
        statusCallbackUrl: 'https://gateway.example/api/webhooks/twilio/status',
        ...(marketingSender ? { marketingSender } : {}),
      },
    },
    ...(now ? { now } : {}),
  });
  return { testDb, server };
}

let sids = 0;
/** Posts a reply from `from` to our number `to`, signed as Twilio signs it. */
async function reply(server: MessagingServer, from: string, to: string, body: string) {
  const params = { From: from, To: to, Body: body, MessageSid: `SMin${++sids}` };
  const url = `${server.url}/api/webhooks/twilio/inbound`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(TOKEN, url, params),
    },
    body: new URLSearchParams(params).toString(),
  });
  expect(response.status).toBe(200);
}

const answersTo = (number: string) => sent.filter((m) => m.To === number).map((m) => m.Body);

describe('every keyword in both languages, case and accents ignored', () => {
  let testDb: TestDb;
  let server: MessagingServer;
  beforeAll(async () => {
    ({ testDb, server } = await start(undefined));
  });
  afterAll(async () => {
    await server.close();
    await testDb.close();
  });

  const cases = (
    Object.entries(KEYWORDS) as [KeywordIntent, Record<KeywordLanguage, readonly string[]>][]
  ).flatMap(([intent, languages]) =>
    (Object.entries(languages) as [KeywordLanguage, readonly string[]][]).flatMap(
      ([language, words]) => words.map((word) => ({ intent, language, word })),
    ),
  );
  /** How a driver might type it: lower case, with the accent Spanish writes on SÍ. */
  const typed = (word: string) => (word === 'SI' ? 'Sí' : ` ${word.toLowerCase()} `);

  it.each(cases.map((c, i) => ({ ...c, i })))(
    '$word ($language) is a $intent, answered in its language',
    async ({ intent, language, word, i }) => {
      const from = `+1555123${String(1000 + i)}`;
      await reply(server, from, ACCOUNT, typed(word));
      await eventually(() => expect(answersTo(from)).toEqual([KEYWORD_ANSWERS[language][intent]]));
      const [stopped] = await testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM opt_outs WHERE phone_number = $1',
        [from],
      );
      expect(stopped!.n).toBe(intent === 'opt-out' ? 1 : 0);
    },
  );

  it('a Spanish START after a Spanish STOP lets messages through again', async () => {
    const from = '+15551239001';
    await reply(server, from, ACCOUNT, 'BAJA');
    await reply(server, from, ACCOUNT, 'comenzar');
    await eventually(() => expect(answersTo(from)).toHaveLength(2));
    const alert = await server.messaging.enqueue({
      createdBy: OWNER,
      key: 'alert:needs-code:1',
      to: from,
      body: 'Your account needs a code',
      quietHours: false,
    });
    await waitForJob(testDb.db, alert.jobId!);
    expect(answersTo(from).at(-1)).toBe('Your account needs a code');
  });
});

describe('senders kept apart', () => {
  it('STOP to a marketing text stops marketing only, and the answer says alerts continue and how to stop them', async () => {
    const { testDb, server } = await start(MARKETING);
    try {
      const driver = '+15551238001';
      await reply(server, driver, MARKETING, 'STOP');
      await eventually(() => expect(answersTo(driver)).toHaveLength(1));
      const answer = sent.find((m) => m.To === driver)!;
      expect(answer.From).toBe(MARKETING);
      expect(answer.Body).toBe(
        KEYWORD_ANSWERS.en['opt-out-marketing'].replace('{account}', ACCOUNT),
      );

      const marketing = await sendAsOwner(server.url, [driver, '+15551238002']);
      const alert = await server.messaging.enqueue({
        createdBy: OWNER,
        key: 'alert:throttled:1',
        to: driver,
        body: 'You are throttled until 10:05',
        quietHours: false,
      });
      await waitForJob(testDb.db, marketing.jobId);
      await waitForJob(testDb.db, alert.jobId!);
      const rows = await testDb.db.query<{ to_number: string; status: string; job_id: string }>(
        'SELECT job_id, to_number, status FROM send_recipients ORDER BY job_id, seq',
      );
      const status = (job: string, to: string) =>
        rows.find((r) => r.job_id === job && r.to_number === to)?.status;
      expect(status(marketing.jobId, driver)).toBe('skipped-opted-out');
      expect(status(marketing.jobId, '+15551238002')).toBe('sent');
      expect(status(alert.jobId!, driver)).toBe('sent');
      // Marketing went out from its own sender, the alert from the account's.
      expect(sent.find((m) => m.To === '+15551238002')?.From).toBe(MARKETING);
      expect(sent.find((m) => m.Body === 'You are throttled until 10:05')?.From).toBe(ACCOUNT);
    } finally {
      await server.close();
      await testDb.close();
    }
  });

  it('with one sender, STOP stops everything, alerts included', async () => {
    const { testDb, server } = await start(undefined);
    try {
      const driver = '+15551238101';
      await reply(server, driver, ACCOUNT, 'parar');
      await eventually(() => expect(answersTo(driver)).toEqual([KEYWORD_ANSWERS.es['opt-out']]));
      const alert = await server.messaging.enqueue({
        createdBy: OWNER,
        key: 'alert:block-won:1',
        to: driver,
        body: 'You won a block',
        quietHours: false,
      });
      await waitForJob(testDb.db, alert.jobId!);
      const [row] = await testDb.db.query<{ status: string }>(
        'SELECT status FROM send_recipients WHERE job_id = $1',
        [alert.jobId],
      );
      expect(row!.status).toBe('skipped-opted-out');
      expect(answersTo(driver)).toHaveLength(1);
    } finally {
      await server.close();
      await testDb.close();
    }
  });
});

describe('HELP', () => {
  it('is answered once per number per day, in the keyword’s language', async () => {
    let clock = Date.parse('2026-03-02T15:00:00Z');
    const { testDb, server } = await start(undefined, () => clock);
    try {
      const driver = '+15551238201';
      await reply(server, driver, ACCOUNT, 'AYUDA');
      await reply(server, driver, ACCOUNT, 'help');
      await reply(server, driver, ACCOUNT, 'INFO');
      await eventually(() => expect(answersTo(driver)).toEqual([KEYWORD_ANSWERS.es.help]));
      // Each inbound is logged even when not answered.
      const [logged] = await testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM inbound_replies WHERE from_number = $1',
        [driver],
      );
      expect(logged!.n).toBe(3);
      clock += 24 * 60 * 60_000;
      await reply(server, driver, ACCOUNT, 'HELP');
      await eventually(() =>
        expect(answersTo(driver)).toEqual([KEYWORD_ANSWERS.es.help, KEYWORD_ANSWERS.en.help]),
      );
    } finally {
      await server.close();
      await testDb.close();
    }
  });
});
