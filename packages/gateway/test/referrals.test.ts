import { driverInvitationsResponseSchema, WEEK_MS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { openDatabase } from '../src/storage/db.js';
import { optOut } from '../src/storage/opt-outs.js';
import { findUserByPhone, insertUsers } from '../src/storage/users.js';
import { checkoutAndPay } from './helpers/checkout.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { addDriver, addInviter, freshPhone } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { OWNER } from './helpers/people.js';
import { waitForJob } from './messaging-harness.js';

const DAY = 86_400_000;

describe.each(['pglite', 'postgres'] as const)('on %s', (kind) => {
  let api: RunningGateway;
  const schema = uniqueSchema();

  beforeAll(async () => {
    api = await startGateway(
      kind === 'postgres' ? { databaseUrl: POSTGRES_URL, databaseSchema: schema } : {},
    );
  });

  afterAll(async () => {
    await api?.gateway.close();
    if (kind === 'postgres') {
      const db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL });
      await db.query(`DROP SCHEMA "${schema}" CASCADE`);
      await db.close();
    }
  });

  const expirationOf = async (phone: string) =>
    (await findUserByPhone(api.gateway.db, 'flex', phone))?.expiration_ts ?? null;

  it('gives the inviter one free week when 10 first payments of the friend race, and none on a later payment', async () => {
    const inviter = await addInviter(api, {
      expiration_ts: Date.now() + 10 * DAY,
      good_standing: true,
    });
    // Paid for a week of their own: only the free week moves it from here.
    const inviterExpiration = (await expirationOf(inviter.phone))!;
    const friendPhone = freshPhone();
    const invited = await inviter.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: friendPhone.slice(2),
    });
    expect(invited.status).toBe(201);
    const friend = await addDriver(api, { phone_number: friendPhone });

    // Ten checkouts paid at once on the processor's page: ten first payments racing.
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        checkoutAndPay(api.url, friend.call, { mode: 'payment', weeks: 1 }),
      ),
    );
    expect(replies.map((r) => r.page.status)).toEqual(Array(10).fill(303));
    expect(await expirationOf(inviter.phone)).toBe(inviterExpiration + WEEK_MS);

    const list = driverInvitationsResponseSchema.parse(
      (await inviter.call('GET', '/api/flex/v1/invitations')).body,
    );
    expect(list.freeWeeksEarned).toBe(1);
    expect(list.Items).toEqual([
      expect.objectContaining({ phoneNumber: friendPhone, freeWeek: true, status: 'paid' }),
    ]);

    await checkoutAndPay(api.url, friend.call, { mode: 'payment', weeks: 2 });
    expect(await expirationOf(inviter.phone)).toBe(inviterExpiration + WEEK_MS);
    // The friend's own ten payments and the later two weeks all count.
    const friendExpiration = (await expirationOf(friendPhone)) ?? 0;
    expect(friendExpiration - Date.now()).toBeGreaterThan(12 * WEEK_MS - 60_000);
  });

  it('rewards only the inviter whose code the friend signed up with when two invited the same phone', async () => {
    const first = await addInviter(api);
    const second = await addInviter(api);
    const [firstPaid, secondPaid] = [
      await expirationOf(first.phone),
      await expirationOf(second.phone),
    ];
    const friendPhone = freshPhone();
    await first.call('POST', '/api/flex/v1/invitations', { phoneNumber: friendPhone });
    const invited = await second.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: friendPhone,
    });
    const code = invited.body.Item.referralCode as string;
    const friend = await addDriver(api, { phone_number: friendPhone, referral: code });
    await checkoutAndPay(api.url, friend.call, { mode: 'payment', weeks: 1 });
    expect(await expirationOf(first.phone)).toBe(firstPaid);
    expect(await expirationOf(second.phone)).toBe(secondPaid! + WEEK_MS);
    const firstList = (await first.call('GET', '/api/flex/v1/invitations')).body;
    expect(firstList.freeWeeksEarned).toBe(0);
    expect(firstList.Items[0].status).toBe('paid');
  });
});

describe('invitations and reseller', () => {
  let api: RunningGateway;
  // Quiet hours are on, judged by this clock: midday unless a test sets the night.
  const NOON = Date.UTC(2026, 6, 15, 12);
  let clock = () => NOON;

  beforeAll(async () => {
    api = await startGateway(
      { quietHours: true, productTimeZone: 'UTC' },
      { messagingClock: () => clock() },
    );
  });

  const textsTo = async (phone: string) =>
    api.gateway.db.query<{ body: string; created_ts: number }>(
      'SELECT body, created_ts FROM outbox_messages WHERE to_number = $1',
      [phone],
    );
  const invitationJobs = async (phone: string) =>
    api.gateway.db.query<{ id: string; created_by: string }>(
      'SELECT id, created_by FROM send_jobs WHERE idempotency_key = $1',
      [`invitation:${phone}`],
    );

  afterAll(async () => {
    await api?.gateway.close();
  });

  it('stores an invitation under the normalised phone with the date and my referral code', async () => {
    const me = await addInviter(api);
    const before = Date.now();
    const res = await me.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: '(212) 555-0199',
    });
    expect(res.status).toBe(201);
    expect(res.body.Item).toMatchObject({
      phoneNumber: '+12125550199',
      freeWeek: false,
      status: 'invited',
    });
    expect(res.body.Item.dateInvitedTimestamp).toBeGreaterThanOrEqual(before);
    expect(res.body.Item.referralCode).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    const list = (await me.call('GET', '/api/flex/v1/invitations')).body;
    expect(list.referralCode).toBe(res.body.Item.referralCode);
  });

  it('answers a repeated invitation to the same phone (written differently) with the first one', async () => {
    const me = await addInviter(api);
    const first = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: '2125550142' });
    const again = await me.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: '+1 (212) 555-0142',
    });
    expect(again.status).toBe(200);
    // The same invitation; only its text may have moved on from queued.
    const { smsStatus: _first, ...firstItem } = first.body.Item;
    const { smsStatus: _again, ...againItem } = again.body.Item;
    expect(againItem).toEqual(firstItem);
    expect((await me.call('GET', '/api/flex/v1/invitations')).body.Items).toHaveLength(1);
  });

  it('texts the friend once, through the send pipeline, with my first name and the sign-up link; it says queued until sent', async () => {
    const me = await addInviter(api, { name: 'Rosa Diaz' });
    const friend = freshPhone();
    const invited = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
    expect(invited.status).toBe(201);
    expect(invited.body.Item.smsStatus).toBe('queued');
    const code = invited.body.Item.referralCode as string;

    const path = `/api/flex/v1/invite/${encodeURIComponent(friend)}`;
    await eventually(async () =>
      expect((await me.call('GET', path)).body.Item.smsStatus).toBe('delivered'),
    );
    const [text, ...more] = await textsTo(friend);
    expect(more).toEqual([]);
    expect(text!.body).toContain('Rosa invited you to BlockCatch');
    expect(text!.body).toContain(`/register?ref=${code}`);
    // It is an ordinary send job of the inviter's: paced, reported, and listed with the others.
    const jobs = await invitationJobs(friend);
    expect(jobs).toHaveLength(1);
    const [recipient] = await api.gateway.db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM send_recipients WHERE job_id = $1',
      [jobs[0]!.id],
    );
    expect(recipient).toEqual({ status: 'delivered', attempts: 1 });
    // The admins' recent sends stay theirs: the gateway's own texts are listed apart.
    const listed = async (query: string) => {
      const res = await fetch(`${api.url}/api/flex/v1/admin/send-jobs${query}`, {
        headers: api.as(OWNER),
      });
      return ((await res.json()) as { Items: { jobId: string }[] }).Items.map((job) => job.jobId);
    };
    expect(await listed('')).not.toContain(jobs[0]!.id);
    expect(await listed('?origin=system')).toContain(jobs[0]!.id);
    expect(await listed('?origin=all')).toContain(jobs[0]!.id);

    // Inviting the same friend again queues nothing more, and the list says what happened.
    const again = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
    expect(again.status).toBe(200);
    expect(again.body.Item.smsStatus).toBe('delivered');
    expect(await invitationJobs(friend)).toHaveLength(1);
    expect(await textsTo(friend)).toHaveLength(1);
    const list = (await me.call('GET', '/api/flex/v1/invitations')).body;
    expect(list.Items[0]).toMatchObject({ phoneNumber: friend, smsStatus: 'delivered' });
  });

  it('texts a friend once whoever invites them, and still records every inviter’s invitation', async () => {
    const first = await addInviter(api, { name: 'Rosa Diaz' });
    const second = await addInviter(api, { name: 'Luis Vega' });
    const friend = freshPhone();
    await first.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
    await eventually(async () => expect(await textsTo(friend)).toHaveLength(1));
    const invited = await second.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
    expect(invited.status).toBe(201);
    expect(invited.body.Item).toMatchObject({ phoneNumber: friend, status: 'invited' });
    // The text the friend got is the first inviter's; the second one's screen says where it stands.
    expect(invited.body.Item.smsStatus).toBe('delivered');
    expect(await invitationJobs(friend)).toHaveLength(1);
    const texts = await textsTo(friend);
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/^Rosa invited you/);
    const list = (await second.call('GET', '/api/flex/v1/invitations')).body;
    expect(list.Items).toHaveLength(1);
    expect(list.Items[0]).toMatchObject({ phoneNumber: friend, smsStatus: 'delivered' });
  });

  it('writes the text in the inviter’s language', async () => {
    const me = await addInviter(api, { name: 'Ana' });
    await api.gateway.db.query(
      "UPDATE users SET preferred_language = 'es' WHERE phone_number = $1",
      [me.phone],
    );
    const friend = freshPhone();
    await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
    await eventually(async () => expect(await textsTo(friend)).toHaveLength(1));
    expect((await textsTo(friend))[0]!.body).toMatch(/^Ana te invitó a BlockCatch/);
  });

  it('sends no text to a friend who opted out, and says why', async () => {
    const me = await addInviter(api);
    const friend = freshPhone();
    await optOut(api.gateway.db, friend);
    const invited = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
    expect(invited.status).toBe(201);
    expect(invited.body.Item.smsStatus).toBe('skipped-opted-out');
    const [job] = await invitationJobs(friend);
    await waitForJob(api.gateway.db, job!.id);
    expect(await textsTo(friend)).toEqual([]);
  });

  it('holds the text for the morning when the friend would get it at night', async () => {
    const me = await addInviter(api);
    const friend = freshPhone();
    // 23:30 in the product's zone (the friend has no region yet): 8.5 hours before 8 am.
    clock = () => Date.UTC(2026, 6, 15, 23, 30);
    try {
      const before = Date.now();
      const invited = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: friend });
      expect(invited.body.Item.smsStatus).toBe('queued');
      const [job] = await invitationJobs(friend);
      // The worker looked at it and put it back until 8 am.
      const due = await eventually(async () => {
        const [row] = await api.gateway.db.query<{ status: string; next_attempt_ts: string }>(
          'SELECT status, next_attempt_ts FROM send_recipients WHERE job_id = $1',
          [job!.id],
        );
        expect(row?.status).toBe('queued');
        expect(Number(row!.next_attempt_ts)).toBeGreaterThan(before + 8 * 3_600_000);
        return Number(row!.next_attempt_ts);
      });
      expect(due).toBeGreaterThanOrEqual(before + 8.5 * 3_600_000);
      expect(due).toBeLessThanOrEqual(Date.now() + 8.5 * 3_600_000);
      expect(await textsTo(friend)).toEqual([]);
      expect((await me.call('GET', `/api/flex/v1/invite/${friend}`)).body.Item.smsStatus).toBe(
        'queued',
      );
    } finally {
      clock = () => NOON;
    }
  });

  it('shows one invitation by phone as invited, then registered once the friend signs up', async () => {
    const me = await addInviter(api);
    const friendPhone = freshPhone();
    await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: friendPhone });
    const path = `/api/flex/v1/invite/${encodeURIComponent(friendPhone.slice(2))}`;
    expect((await me.call('GET', path)).body.Item.status).toBe('invited');
    await insertUsers(api.gateway.db, [
      { product: 'flex', phone_number: friendPhone, name: 'Friend' },
    ]);
    expect((await me.call('GET', path)).body.Item.status).toBe('registered');
    const stranger = await addDriver(api);
    expect((await stranger.call('GET', path)).status).toBe(404);
    expect((await me.call('GET', '/api/flex/v1/invite/12')).status).toBe(400);
  });

  it.each([
    [{}, /^phoneNumber: The phone number is required to send an invitation$/],
    [{ phoneNumber: '' }, /^phoneNumber: The phone number is required/],
    [{ phoneNumber: '555-01' }, /^phoneNumber: "555-01" is not a valid US phone number/],
    [{ phoneNumber: 2125550100 }, /^phoneNumber:/],
    [{ phoneNumber: '2125550100', extra: 1 }, /extra|Unrecognized/],
  ])('answers 400 naming the field for %j', async (body, message) => {
    const me = await addInviter(api);
    const res = await me.call('POST', '/api/flex/v1/invitations', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('refuses inviting oneself', async () => {
    const me = await addInviter(api);
    const res = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: me.phone });
    expect(res.status).toBe(400);
  });

  it('shows a reseller the users who signed up with their code and whether they are paid up', async () => {
    const now = Date.now();
    const reseller = await addDriver(api, {
      referral_code: 'RSL234',
      stripe_express_id: 'acct_123',
    });
    await insertUsers(api.gateway.db, [
      {
        product: 'flex',
        phone_number: freshPhone(),
        name: 'Paid',
        referral: 'RSL234',
        expiration_ts: now + 5 * DAY,
      },
      {
        product: 'flex',
        phone_number: freshPhone(),
        name: 'Expiring',
        referral: 'RSL234',
        expiration_ts: now + DAY / 2,
      },
      {
        product: 'flex',
        phone_number: freshPhone(),
        name: 'Expired',
        referral: 'RSL234',
        expiration_ts: now - DAY,
      },
      { product: 'flex', phone_number: freshPhone(), name: 'Never', referral: 'RSL234' },
      { product: 'flex', phone_number: freshPhone(), name: 'Someone else', referral: 'OTHER2' },
    ]);
    const res = await reseller.call('GET', '/api/flex/v1/reseller');
    expect(res.status).toBe(200);
    expect(res.body.referralCode).toBe('RSL234');
    expect(res.body.totals).toEqual({ paid: 1, expiring: 1, expired: 1, unpaid: 1 });
    const byName = Object.fromEntries(
      res.body.Items.map((u: { name: string; paymentStatus: string }) => [u.name, u.paymentStatus]),
    );
    expect(byName).toEqual({
      Paid: 'paid',
      Expiring: 'expiring',
      Expired: 'expired',
      Never: 'unpaid',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/\+1555/);
  });

  it('lets the reseller role in too, and keeps ordinary drivers out with 403', async () => {
    const byRole = await addDriver(api, { role: 'reseller' });
    expect((await byRole.call('GET', '/api/flex/v1/reseller')).status).toBe(200);
    const driver = await addDriver(api);
    const res = await driver.call('GET', '/api/flex/v1/reseller');
    expect(res.status).toBe(403);
  });
});
