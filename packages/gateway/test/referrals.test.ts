// Referrals over HTTP: a driver invites friends by phone, the first payment of a friend gives the
// inviter one free week exactly once (also under concurrent first payments, on PGlite and on real
// PostgreSQL), and resellers see the users who signed up with their code.
import { randomUUID } from 'node:crypto';
import { driverInvitationsResponseSchema, WEEK_MS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/storage/db.js';
import { findUserByPhone, insertUsers } from '../src/storage/users.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { addDriver, freshPhone } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';

const SUCCEEDS = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
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
    const inviterExpiration = Date.now() + 10 * DAY;
    const inviter = await addDriver(api, { expiration_ts: inviterExpiration, good_standing: true });
    const friendPhone = freshPhone();
    const invited = await inviter.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: friendPhone.slice(2),
    });
    expect(invited.status).toBe(201);
    const friend = await addDriver(api, { phone_number: friendPhone });

    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        friend.call(
          'POST',
          '/api/flex/v1/payments',
          { weeks: 1, card: SUCCEEDS },
          { 'idempotency-key': randomUUID() },
        ),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(await expirationOf(inviter.phone)).toBe(inviterExpiration + WEEK_MS);

    const list = driverInvitationsResponseSchema.parse(
      (await inviter.call('GET', '/api/flex/v1/invitations')).body,
    );
    expect(list.freeWeeksEarned).toBe(1);
    expect(list.Items).toEqual([
      expect.objectContaining({ phoneNumber: friendPhone, freeWeek: true, status: 'paid' }),
    ]);

    await friend.call(
      'POST',
      '/api/flex/v1/payments',
      { weeks: 2, card: SUCCEEDS },
      { 'idempotency-key': randomUUID() },
    );
    expect(await expirationOf(inviter.phone)).toBe(inviterExpiration + WEEK_MS);
    // The friend's own ten payments and the later two weeks all count.
    const friendExpiration = (await expirationOf(friendPhone)) ?? 0;
    expect(friendExpiration - Date.now()).toBeGreaterThan(12 * WEEK_MS - 60_000);
  });

  it('rewards only the inviter whose code the friend signed up with when two invited the same phone', async () => {
    const first = await addDriver(api);
    const second = await addDriver(api);
    const friendPhone = freshPhone();
    await first.call('POST', '/api/flex/v1/invitations', { phoneNumber: friendPhone });
    const invited = await second.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: friendPhone,
    });
    const code = invited.body.Item.referralCode as string;
    const friend = await addDriver(api, { phone_number: friendPhone, referral: code });
    await friend.call(
      'POST',
      '/api/flex/v1/payments',
      { weeks: 1, card: SUCCEEDS },
      { 'idempotency-key': randomUUID() },
    );
    expect(await expirationOf(first.phone)).toBeNull();
    expect(await expirationOf(second.phone)).not.toBeNull();
    const firstList = (await first.call('GET', '/api/flex/v1/invitations')).body;
    expect(firstList.freeWeeksEarned).toBe(0);
    expect(firstList.Items[0].status).toBe('paid');
  });
});

describe('invitations and reseller', () => {
  let api: RunningGateway;

  beforeAll(async () => {
    api = await startGateway();
  });

  afterAll(async () => {
    await api?.gateway.close();
  });

  it('stores an invitation under the normalised phone with the date and my referral code', async () => {
    const me = await addDriver(api);
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
    const me = await addDriver(api);
    const first = await me.call('POST', '/api/flex/v1/invitations', { phoneNumber: '2125550142' });
    const again = await me.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: '+1 (212) 555-0142',
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await me.call('GET', '/api/flex/v1/invitations')).body.Items).toHaveLength(1);
  });

  it('shows one invitation by phone as invited, then registered once the friend signs up', async () => {
    const me = await addDriver(api);
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
    const me = await addDriver(api);
    const res = await me.call('POST', '/api/flex/v1/invitations', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('refuses inviting oneself', async () => {
    const me = await addDriver(api);
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
