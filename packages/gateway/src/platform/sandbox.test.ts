import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../../tests/support/eventually.js';
import { type Db, openDatabase } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import { createSandboxPlatform, type SandboxPlatform } from './sandbox.js';
import { PlatformError, type PlatformSession } from './types.js';

let db: Db;
let texts: { to: string; text: string }[];
let platform: SandboxPlatform;
const HOUR = 3_600_000;
/** The platform's clock: tests move it instead of waiting. */
let clock: number;
const now = () => clock;

function start(options: Parameters<typeof createSandboxPlatform>[0]['options'] = {}) {
  platform = createSandboxPlatform({
    db,
    sendCode: async (to, text) => void texts.push({ to, text }),
    options: { offerIntervalMs: 0, failureRate: 0, maxPollsPerSecond: 0, ...options },
    now,
  });
  return platform;
}

async function connected(email = 'a@example.com'): Promise<PlatformSession> {
  const { challengeId } = await platform.signIn({
    email,
    password: 'pw-1',
    phoneNumber: '+15125550100',
  });
  const code = texts.at(-1)!.text.slice(-6);
  return platform.verifyOtp({ challengeId, code });
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError');
};

const block = () => {
  const startTime = clock + 3 * HOUR;
  return { serviceAreaId: 'DAU1', startTime, endTime: startTime + 4 * HOUR, pay: 90 };
};

beforeAll(async () => {
  db = await openDatabase({ kind: 'pglite' });
  await migrate(db);
});

beforeEach(async () => {
  texts = [];
  clock = Date.parse('2026-03-02T12:00:00Z');
  await db.query('DELETE FROM sandbox_offers');
});

afterEach(async () => {
  await platform?.stop();
});

afterAll(async () => {
  await db.close();
});

describe('the sandbox delivery platform', () => {
  it('texts a one-time code to the phone on file and opens a session with it, once', async () => {
    start();
    const { challengeId } = await platform.signIn({
      email: 'Dana@Example.com',
      password: 'pw-1',
      phoneNumber: '+15125550100',
    });
    expect(texts).toHaveLength(1);
    expect(texts[0]!.to).toBe('+15125550100');
    const code = texts[0]!.text.match(/(\d{6})$/)![1]!;
    expect(
      (
        await failure(
          platform.verifyOtp({ challengeId, code: code === '000000' ? '111111' : '000000' }),
        )
      ).kind,
    ).toBe('invalid-code');
    const session = await platform.verifyOtp({ challengeId, code });
    expect(session.accountId).toMatch(/^acct-/);
    expect((await failure(platform.verifyOtp({ challengeId, code }))).kind).toBe('invalid-code');
    // The same account, whatever the email's case.
    const again = await platform.signIn({
      email: 'dana@example.com',
      password: 'pw-1',
      phoneNumber: '+1',
    });
    expect(again.challengeId).not.toBe(challengeId);
    expect(texts.at(-1)!.to).toBe('+15125550100');
  });

  it('refuses a wrong password for an account it knows', async () => {
    start();
    await connected('b@example.com');
    const error = await failure(
      platform.signIn({ email: 'b@example.com', password: 'nope', phoneNumber: '+15125550100' }),
    );
    expect(error.kind).toBe('invalid-credentials');
  });

  it('shows an offer until someone takes it, and gives it to the first taker only', async () => {
    start();
    const first = await connected('c@example.com');
    const second = await connected('d@example.com');
    const offer = await platform.publishOffer(block());
    expect((await platform.listOffers(first)).map((o) => o.offerId)).toEqual([offer.offerId]);
    expect(await platform.acceptOffer(first, offer.offerId)).toBe('won');
    expect(await platform.acceptOffer(second, offer.offerId)).toBe('gone');
    expect(await platform.listOffers(second)).toEqual([]);
    expect(await platform.arrive(first)).toEqual({ offerId: offer.offerId });
    expect(await platform.arrive(second)).toEqual({ offerId: null });
  });

  it('lets other drivers take an offer after its time is up', async () => {
    start();
    const session = await connected();
    const offer = await platform.publishOffer({ ...block(), takenAfterMs: 30 });
    expect(await platform.listOffers(session)).toHaveLength(1);
    clock += 29;
    expect(await platform.listOffers(session)).toHaveLength(1);
    clock += 1;
    expect(await platform.listOffers(session)).toEqual([]);
    expect(await platform.acceptOffer(session, offer.offerId)).toBe('gone');
  });

  it('answers 429 with a Retry-After when one account polls too fast', async () => {
    start({ maxPollsPerSecond: 3, retryAfterMs: 1500 });
    const session = await connected();
    for (let i = 0; i < 3; i++) await platform.listOffers(session);
    const error = await failure(platform.listOffers(session));
    expect(error.kind).toBe('throttled');
    expect(error.retryAfterMs).toBe(1500);
    // Another account has its own allowance.
    expect(await platform.listOffers(await connected('other@example.com'))).toEqual([]);
    expect(platform.stats.get(session.accountId)).toMatchObject({ polls: 3, throttled: 1 });
  });

  it('fails calls at the configured rate', async () => {
    let n = 0;
    platform = createSandboxPlatform({
      db,
      sendCode: async (to, text) => void texts.push({ to, text }),
      options: { offerIntervalMs: 0, failureRate: 0.5, maxPollsPerSecond: 0 },
      random: () => (n++ % 2 === 0 ? 0.1 : 0.9),
    });
    const session = await connected();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        platform.listOffers(session).then(
          () => 'ok',
          (e: PlatformError) => e.kind,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'unavailable')).toHaveLength(5);
  });

  it('refuses a session token it did not issue', async () => {
    start();
    const error = await failure(
      platform.listOffers({ accountId: 'acct-x', accessToken: 'forged' }),
    );
    expect(error.kind).toBe('unauthorized');
  });

  it('publishes offers by itself at the configured rate and announces them', async () => {
    start({ offerIntervalMs: 20 });
    let announced = 0;
    platform.onNewOffers?.(() => announced++);
    platform.start();
    await eventually(async () => {
      const [published] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sandbox_offers',
      );
      expect(published!.n).toBeGreaterThan(3);
    });
    await platform.stop();
    const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_offers');
    expect(count!.n).toBeGreaterThan(3);
    expect(announced).toBe(count!.n);
  });

  it('shows offers another process published', async () => {
    start();
    const session = await connected();
    const other = createSandboxPlatform({
      db,
      sendCode: async () => {},
      options: { offerIntervalMs: 0 },
      now,
    });
    expect(await platform.listOffers(session)).toEqual([]);
    const offer = await other.publishOffer(block());
    // Each process rereads the open offers once its copy is older than 50 ms.
    clock += 51;
    expect((await platform.listOffers(session)).map((o) => o.offerId)).toContain(offer.offerId);
    await other.stop();
  });
});
