// Attacks through invitations, made against a running gateway: SMS pumping (a new or unpaid
// account, one driver inviting many numbers, many drivers at once), and words a user chose texted
// to strangers in the service's name. Limits count on an injected clock (`clock`), so windows and
// hours move without waiting; the send worker keeps the real one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { findAccountByUsername, updateAccount } from '../src/storage/accounts.js';
import { optOut } from '../src/storage/opt-outs.js';
import { addDriver, addInviter, freshPhone } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER } from './helpers/people.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Half past an hour, two days ahead: every hour a test moves to is still to come for the worker. */
const START = Math.floor(Date.now() / HOUR) * HOUR + 2 * DAY + HOUR / 2;

const invite = (driver: { call: Awaited<ReturnType<typeof addDriver>>['call'] }, phone: string) =>
  driver.call('POST', '/api/flex/v1/invitations', { phoneNumber: phone });

describe('who may invite, and how many texts a driver may send', () => {
  let api: RunningGateway;
  let now = START;
  // Each test runs in hours of its own, a week apart, so the service's hourly total is its own.
  let week = 0;
  const freshWeek = () => {
    week += 1;
    now = START + week * 7 * DAY;
  };

  beforeAll(async () => {
    api = await startGateway({}, { invitationClock: () => now });
  });
  afterAll(async () => {
    await api?.gateway.close();
  });

  const jobsOf = async (phone: string) =>
    api.gateway.db.query<{ id: string; send_at_ts: string | null }>(
      `SELECT j.id, j.send_at_ts FROM send_jobs j JOIN users u ON u.id = j.created_by
       WHERE u.phone_number = $1 AND j.idempotency_key LIKE 'invitation:%'`,
      [phone],
    );
  const invitationsOf = async (phone: string) =>
    api.gateway.db.query(
      `SELECT i.id FROM invitations i JOIN users u ON u.id = i.invited_by WHERE u.phone_number = $1`,
      [phone],
    );

  it('refuses a new account that never paid with 403, storing and texting nothing', async () => {
    freshWeek();
    const stranger = await addDriver(api);
    const res = await invite(stranger, freshPhone());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(res.body.message).toMatch(/first payment/);
    expect(await invitationsOf(stranger.phone)).toEqual([]);
    expect(await jobsOf(stranger.phone)).toEqual([]);
  });

  it('refuses a paid driver whose phone number is not verified', async () => {
    freshWeek();
    const driver = await addInviter(api);
    const account = await findAccountByUsername(api.gateway.db, driver.phone);
    await updateAccount(
      api.gateway.db,
      account!.id,
      { attributes: { ...account!.attributes, phone_number_verified: 'false' } },
      Date.now(),
    );
    const res = await invite(driver, freshPhone());
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/verified/);
    expect(await jobsOf(driver.phone)).toEqual([]);
  });

  it('queues 3 of 30 invitations one driver sends at once; the rest are 429 rate_limited', async () => {
    freshWeek();
    const driver = await addInviter(api);
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => invite(driver, freshPhone())),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(27).fill(429)]);
    for (const refused of replies.filter((r) => r.status === 429)) {
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.headers.get('retry-after')).toBe('3600');
    }
    expect(await jobsOf(driver.phone)).toHaveLength(3);
    expect(await invitationsOf(driver.phone)).toHaveLength(3);
  });

  it('says when the hour is over in Retry-After, and invites again once it is', async () => {
    freshWeek();
    const driver = await addInviter(api);
    for (let i = 0; i < 3; i++) expect((await invite(driver, freshPhone())).status).toBe(201);
    now += 20 * 60_000;
    const refused = await invite(driver, freshPhone());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(40 * 60));
    expect(refused.body.message).toMatch(/3 invitations per hour; you can invite again in 40 min/);
    now += 40 * 60_000;
    expect((await invite(driver, freshPhone())).status).toBe(201);
  });

  it('allows 10 invitation texts a day, then 429 until the day is over', async () => {
    freshWeek();
    const driver = await addInviter(api);
    const dayStart = now;
    let accepted = 0;
    for (let hour = 0; hour < 4; hour++) {
      now = dayStart + hour * HOUR;
      for (let i = 0; i < 3 && accepted < 10; i++) {
        expect((await invite(driver, freshPhone())).status).toBe(201);
        accepted += 1;
      }
    }
    now = dayStart + 5 * HOUR;
    const refused = await invite(driver, freshPhone());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String((DAY - 5 * HOUR) / 1000));
    expect(refused.body.message).toMatch(/10 invitations per day/);
    now = dayStart + DAY;
    expect((await invite(driver, freshPhone())).status).toBe(201);
    expect(await jobsOf(driver.phone)).toHaveLength(11);
  });

  it('counts no invitation for a repeated friend or a number that opted out, and texts neither', async () => {
    freshWeek();
    const driver = await addInviter(api);
    const friend = freshPhone();
    const stopped = freshPhone();
    await optOut(api.gateway.db, stopped);
    expect((await invite(driver, friend)).status).toBe(201);
    expect((await invite(driver, friend)).status).toBe(200);
    const skipped = await invite(driver, stopped);
    expect(skipped.status).toBe(201);
    expect(skipped.body.Item.smsStatus).toBe('skipped-opted-out');
    // Two texts left this hour: the repeat and the opted-out number took none.
    expect((await invite(driver, freshPhone())).status).toBe(201);
    expect((await invite(driver, freshPhone())).status).toBe(201);
    expect((await invite(driver, freshPhone())).status).toBe(429);
    const texts = await api.gateway.db.query('SELECT 1 FROM outbox_messages WHERE to_number = $1', [
      stopped,
    ]);
    expect(texts).toEqual([]);
  });
});

describe('the service’s hourly total of invitation texts', () => {
  let api: RunningGateway;
  let now = START;

  beforeAll(async () => {
    api = await startGateway({ invitationLimits: { perHour: 2 } }, { invitationClock: () => now });
  });
  afterAll(async () => {
    await api?.gateway.close();
  });

  const recipientOf = async (friend: string) => {
    const [row] = await api.gateway.db.query<{ status: string; next_attempt_ts: string }>(
      'SELECT status, next_attempt_ts FROM send_recipients WHERE to_number = $1',
      [friend],
    );
    return row;
  };
  const backlog = async (who: string) => {
    const res = await fetch(`${api.url}/api/flex/v1/admin/invitation-backlog`, {
      headers: api.as(who),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('keeps the invitations past the total for the next hours, and the admins see the backlog', async () => {
    const hour = Math.floor(now / HOUR) * HOUR;
    const friends = Array.from({ length: 5 }, () => freshPhone());
    for (const friend of friends) {
      const res = await invite(await addInviter(api), friend);
      // Kept, not refused: the driver's invitation stands and its text is queued.
      expect(res.status).toBe(201);
      expect(res.body.Item.smsStatus).toBe('queued');
    }
    // The first two go now; the next two wait for the next hour, the fifth for the one after.
    await eventually(async () => {
      for (const friend of friends.slice(0, 2))
        expect((await recipientOf(friend))?.status).toBe('delivered');
    });
    const due = await Promise.all(friends.slice(2).map(recipientOf));
    expect(due.map((r) => r?.status)).toEqual(['queued', 'queued', 'queued']);
    expect(due.map((r) => Number(r?.next_attempt_ts))).toEqual([
      hour + HOUR,
      hour + HOUR,
      hour + 2 * HOUR,
    ]);
    const texts = await api.gateway.db.query(
      'SELECT 1 FROM outbox_messages WHERE to_number = ANY($1::text[])',
      [friends.slice(2)],
    );
    expect(texts).toEqual([]);

    expect(await backlog(ADMIN)).toEqual({
      status: 200,
      body: { waiting: 3, nextAt: hour + HOUR, perHour: 2 },
    });
    expect((await backlog(DRIVER)).status).toBe(403);
  });

  it('texts a kept invitation when its hour comes, and never a number that opted out meanwhile', async () => {
    // Two hours on, the fifth's hour: one place is left in it, the others wait for later hours.
    now += 2 * HOUR;
    const kept = freshPhone();
    const stopped = freshPhone();
    for (const friend of [freshPhone(), freshPhone(), kept, stopped]) {
      expect((await invite(await addInviter(api), friend)).status).toBe(201);
    }
    expect((await recipientOf(kept))?.status).toBe('queued');
    await optOut(api.gateway.db, stopped);
    // The hour comes (for the worker, whose clock is the real one).
    await api.gateway.db.query(
      'UPDATE send_recipients SET next_attempt_ts = $2 WHERE to_number = ANY($1::text[])',
      [[kept, stopped], Date.now()],
    );
    await eventually(async () => {
      expect((await recipientOf(kept))?.status).toBe('delivered');
      expect((await recipientOf(stopped))?.status).toBe('skipped-opted-out');
    });
    const texts = await api.gateway.db.query<{ to_number: string }>(
      'SELECT to_number FROM outbox_messages WHERE to_number = ANY($1::text[])',
      [[kept, stopped]],
    );
    expect(texts).toEqual([{ to_number: kept }]);
  });
});

describe('what a stranger’s text says about the inviter', () => {
  let api: RunningGateway;

  beforeAll(async () => {
    api = await startGateway();
  });
  afterAll(async () => {
    await api?.gateway.close();
  });

  /** The text a friend of a driver named `name` gets. */
  async function textFrom(name: string, language = 'en') {
    const driver = await addInviter(api, { name });
    await api.gateway.db.query('UPDATE users SET preferred_language = $2 WHERE phone_number = $1', [
      driver.phone,
      language,
    ]);
    const friend = freshPhone();
    expect((await invite(driver, friend)).status).toBe(201);
    return eventually(async () => {
      const [text] = await api.gateway.db.query<{ body: string }>(
        'SELECT body FROM outbox_messages WHERE to_number = $1',
        [friend],
      );
      expect(text).toBeDefined();
      return text!.body;
    });
  }

  it.each([
    'Claim $500 http://evil.example/x',
    'Rosa evil.example',
    'Rosa rosa@evil.example',
    'Call 202-555-0100 now',
    'www.win-big.example',
    '=HYPERLINK("http://evil.example")',
  ])('leaves out the name %j: "A friend invited you…"', async (name) => {
    const body = await textFrom(name);
    expect(body).toMatch(/^A friend invited you to BlockCatch, which catches delivery blocks/);
    expect(body).not.toMatch(/evil|win-big|202|Claim|Call|Rosa/);
  });

  it('says the inviter’s first name only', async () => {
    expect(await textFrom('Rosa María Díaz')).toMatch(/^Rosa invited you to BlockCatch/);
    expect(await textFrom("D'Angelo Smith-Jones")).toMatch(/^D'Angelo invited you/);
  });

  it('leaves the name out in Spanish too', async () => {
    const body = await textFrom('Gana $500 en http://evil.example', 'es');
    expect(body).toMatch(/^Un amigo te invitó a BlockCatch/);
    expect(body).not.toContain('evil');
  });
});
