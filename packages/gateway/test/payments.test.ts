// Weekly payments over HTTP with the sandbox card processor: every test card's outcome, the
// expiration they buy, idempotent and concurrent replays, who may read what, bad input, and the
// admin billing report.
import { randomUUID } from 'node:crypto';
import {
  billingResponseSchema,
  paymentResponseSchema,
  paymentsResponseSchema,
  priceResponseSchema,
  WEEK_MS,
} from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSandboxCharges } from '../src/storage/sandbox-card-charges.js';
import { findUserByPhone } from '../src/storage/users.js';
import { addDriver, type Client, client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, OWNER } from './helpers/people.js';

const CARD = { expMonth: 12, expYear: 2040, cvc: '123' };
const SUCCEEDS = { ...CARD, number: '4242 4242 4242 4242' };
const DECLINED = { ...CARD, number: '4000 0000 0000 0002' };
const PROCESSING = { ...CARD, number: '4000 0000 0000 3220' };

let api: RunningGateway;
let owner: Client;
let admin: Client;

const pay = (call: Client, body: unknown, key: string | null = randomUUID()) =>
  call('POST', '/api/flex/v1/payments', body, key === null ? {} : { 'idempotency-key': key });

async function expirationOf(phone: string) {
  return (await findUserByPhone(api.gateway.db, 'flex', phone))?.expiration_ts ?? null;
}

beforeAll(async () => {
  api = await startGateway({ weeklyPriceCents: 2500 });
  owner = client(api.url, api.as(OWNER).authorization);
  admin = client(api.url, api.as(ADMIN).authorization);
});

afterAll(async () => {
  await api?.gateway.close();
});

describe('price', () => {
  it('sells 1 to 52 weeks at the configured weekly price through the sandbox', async () => {
    const res = await client(api.url, null)('GET', '/api/flex/v1/price');
    expect(res.status).toBe(200);
    expect(priceResponseSchema.parse(res.body)).toEqual({
      weeklyPriceCents: 2500,
      currency: 'usd',
      minWeeks: 1,
      maxWeeks: 52,
      provider: 'sandbox',
    });
  });
});

describe('paying with the sandbox test cards', () => {
  it('4242… succeeds: the driver is charged weeks × price and paid up 7 days per week from now', async () => {
    const driver = await addDriver(api);
    const before = Date.now();
    const res = await pay(driver.call, { weeks: 2, card: SUCCEEDS });
    expect(res.status).toBe(201);
    const { payment } = paymentResponseSchema.parse(res.body);
    expect(payment).toMatchObject({
      status: 'succeeded',
      weeks: 2,
      amountCents: 5000,
      cardLast4: '4242',
    });
    const expiration = await expirationOf(driver.phone);
    expect(expiration).toBe(payment.expirationDateTimestamp);
    expect(expiration).toBeGreaterThanOrEqual(before + 2 * WEEK_MS);
    expect(expiration).toBeLessThanOrEqual(Date.now() + 2 * WEEK_MS);
    const me = await driver.call('GET', '/api/flex/v1/user');
    expect(me.body.Item).toMatchObject({ goodStanding: true, expirationDateTimestamp: expiration });
  });

  it('adds a new payment to a future expiration instead of to now', async () => {
    const current = Date.now() + 3 * 86_400_000;
    const driver = await addDriver(api, { expiration_ts: current, good_standing: true });
    const res = await pay(driver.call, { weeks: 1, card: SUCCEEDS });
    expect(res.status).toBe(201);
    expect(await expirationOf(driver.phone)).toBe(current + WEEK_MS);
  });

  it('restarts from now after a lapse, and gives good standing back', async () => {
    const driver = await addDriver(api, { expiration_ts: Date.now() - 30 * 86_400_000 });
    const before = Date.now();
    await pay(driver.call, { weeks: 1, card: SUCCEEDS });
    const expiration = (await expirationOf(driver.phone)) ?? 0;
    expect(expiration - before).toBeGreaterThanOrEqual(WEEK_MS);
    expect(expiration - Date.now()).toBeLessThanOrEqual(WEEK_MS);
    expect((await findUserByPhone(api.gateway.db, 'flex', driver.phone))?.good_standing).toBe(true);
  });

  it('4000…0002 is declined with 402 Payment failed and buys nothing', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 1, card: DECLINED });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ code: 'payment_failed', message: 'Payment failed' });
    expect(await expirationOf(driver.phone)).toBeNull();
    const history = paymentsResponseSchema.parse(
      (await driver.call('GET', '/api/flex/v1/payments')).body,
    );
    expect(history.Items.map((p) => p.status)).toEqual(['failed']);
  });

  it("4000…3220 stays processing (202, We're processing your payment) until an admin confirms it", async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 3, card: PROCESSING });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'processing',
      message: "We're processing your payment",
    });
    const id = res.body.payment.id as string;
    expect(await expirationOf(driver.phone)).toBeNull();
    expect((await driver.call('GET', `/api/flex/v1/payments/${id}`)).body.Item.status).toBe(
      'processing',
    );

    const forbidden = await driver.call('POST', `/api/sandbox/payments/${id}/confirm`, {});
    expect(forbidden.status).toBe(403);

    const confirmed = await admin('POST', `/api/sandbox/payments/${id}/confirm`, {});
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.Item.status).toBe('succeeded');
    const expiration = await expirationOf(driver.phone);
    expect(expiration).toBe(confirmed.body.Item.expirationDateTimestamp);
    expect(expiration).toBeGreaterThan(Date.now() + 3 * WEEK_MS - 60_000);

    const again = await admin('POST', `/api/sandbox/payments/${id}/confirm`, {});
    expect(again.status).toBe(409);
    expect(await expirationOf(driver.phone)).toBe(expiration);
  });

  it('a processing payment the network fails ends failed and buys nothing', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 1, card: PROCESSING });
    const failed = await admin('POST', `/api/sandbox/payments/${res.body.payment.id}/confirm`, {
      outcome: 'failed',
    });
    expect(failed.body.Item.status).toBe('failed');
    expect(await expirationOf(driver.phone)).toBeNull();
  });
});

describe('idempotency', () => {
  it('answers a replayed key with the same payment and charges the card once', async () => {
    const driver = await addDriver(api);
    const key = randomUUID();
    const charges = await countSandboxCharges(api.gateway.db);
    const first = await pay(driver.call, { weeks: 1, card: SUCCEEDS }, key);
    const expiration = await expirationOf(driver.phone);
    const second = await pay(driver.call, { weeks: 1, card: SUCCEEDS }, key);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await countSandboxCharges(api.gateway.db)).toBe(charges + 1);
    expect(await expirationOf(driver.phone)).toBe(expiration);
  });

  it('charges once when 20 requests with one key arrive together, and all get the same answer', async () => {
    const driver = await addDriver(api);
    const key = randomUUID();
    const charges = await countSandboxCharges(api.gateway.db);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => pay(driver.call, { weeks: 1, card: SUCCEEDS }, key)),
    );
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(replies.map((r) => r.body.payment.id)).size).toBe(1);
    expect(await countSandboxCharges(api.gateway.db)).toBe(charges + 1);
    const history = (await driver.call('GET', '/api/flex/v1/payments')).body.Items;
    expect(history).toHaveLength(1);
  });

  it('replays a decline as a decline without trying the card again', async () => {
    const driver = await addDriver(api);
    const key = randomUUID();
    const charges = await countSandboxCharges(api.gateway.db);
    expect((await pay(driver.call, { weeks: 1, card: DECLINED }, key)).status).toBe(402);
    expect((await pay(driver.call, { weeks: 1, card: DECLINED }, key)).status).toBe(402);
    expect(await countSandboxCharges(api.gateway.db)).toBe(charges + 1);
  });

  it('refuses a key reused for a different payment with 409', async () => {
    const driver = await addDriver(api);
    const key = randomUUID();
    await pay(driver.call, { weeks: 1, card: SUCCEEDS }, key);
    const other = await pay(driver.call, { weeks: 2, card: SUCCEEDS }, key);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('keeps keys per driver: the same key from two drivers makes two payments', async () => {
    const a = await addDriver(api);
    const b = await addDriver(api);
    const key = randomUUID();
    const ra = await pay(a.call, { weeks: 1, card: SUCCEEDS }, key);
    const rb = await pay(b.call, { weeks: 1, card: SUCCEEDS }, key);
    expect(ra.body.payment.id).not.toBe(rb.body.payment.id);
  });
});

describe('who may read payments', () => {
  it("answers another driver's payment as 404, and lists only one's own", async () => {
    const a = await addDriver(api);
    const b = await addDriver(api);
    const paid = await pay(a.call, { weeks: 1, card: SUCCEEDS });
    const id = paid.body.payment.id as string;
    expect((await a.call('GET', `/api/flex/v1/payments/${id}`)).status).toBe(200);
    const theirs = await b.call('GET', `/api/flex/v1/payments/${id}`);
    expect(theirs.status).toBe(404);
    expect((await b.call('GET', '/api/flex/v1/payments')).body.Items).toEqual([]);
  });

  it('needs a session to pay', async () => {
    const res = await pay(client(api.url, null), { weeks: 1, card: SUCCEEDS });
    expect(res.status).toBe(401);
  });
});

describe('bad payment input', () => {
  it.each([
    ['no Idempotency-Key', { weeks: 1, card: SUCCEEDS }, null, /Idempotency-Key/],
    ['zero weeks', { weeks: 0, card: SUCCEEDS }, 'k', /^weeks:/],
    ['53 weeks', { weeks: 53, card: SUCCEEDS }, 'k', /^weeks:/],
    ['half a week', { weeks: 1.5, card: SUCCEEDS }, 'k', /^weeks:/],
    [
      'a card number failing Luhn',
      { weeks: 1, card: { ...CARD, number: '4242 4242 4242 4241' } },
      'k',
      /^card\.number:/,
    ],
    [
      'letters in the card number',
      { weeks: 1, card: { ...CARD, number: '4242 abcd' } },
      'k',
      /^card\.number:/,
    ],
    ['a month 13', { weeks: 1, card: { ...SUCCEEDS, expMonth: 13 } }, 'k', /^card\.expMonth:/],
    ['an expired card', { weeks: 1, card: { ...SUCCEEDS, expYear: 2020 } }, 'k', /^card\.expYear:/],
    ['a 2-digit cvc', { weeks: 1, card: { ...SUCCEEDS, cvc: '12' } }, 'k', /^card\.cvc:/],
    [
      'a Stripe payment method on the sandbox',
      { weeks: 1, paymentMethodId: 'pm_card_visa' },
      'k',
      /^paymentMethodId:/,
    ],
    ['no card at all', { weeks: 1 }, 'k', /^card:/],
  ])('answers 400 naming the field for %s', async (_what, body, key, message) => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, body, key === null ? null : randomUUID());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.message).toMatch(message);
    expect(res.body.message).not.toContain('4242 4242 4242 4241');
  });
});

describe('admin billing', () => {
  it('lists the day’s succeeded payments with per-day totals, for billing-details admins only', async () => {
    const driver = await addDriver(api);
    await pay(driver.call, { weeks: 4, card: SUCCEEDS });
    await pay(driver.call, { weeks: 1, card: DECLINED });
    const today = new Date().toISOString().slice(0, 10);
    const path = `/api/flex/v1/admin/billing?from=${today}&to=${today}&timeZone=UTC`;
    const res = await owner('GET', path);
    expect(res.status).toBe(200);
    const report = billingResponseSchema.parse(res.body);
    expect(report.days).toHaveLength(1);
    const mine = report.Items.filter((p) => p.phoneNumber === driver.phone);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ weeks: 4, amountCents: 10_000, status: 'succeeded' });
    const sum = report.Items.reduce((s, p) => s + p.amountCents, 0);
    expect(report.totals.amountCents).toBe(sum);
    expect(report.days[0]?.amountCents).toBe(sum);

    expect((await admin('GET', path)).status).toBe(403);
    expect((await driver.call('GET', path)).status).toBe(403);
  });

  it('spreads a range over its days and leaves days without payments at zero', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await owner(
      'GET',
      `/api/flex/v1/admin/billing?from=2020-02-27&to=2020-03-01&timeZone=America/New_York`,
    );
    expect(res.status).toBe(200);
    expect(res.body.days.map((d: { day: string }) => d.day)).toEqual([
      '2020-02-27',
      '2020-02-28',
      '2020-02-29',
      '2020-03-01',
    ]);
    expect(res.body.totals).toEqual({ payments: 0, weeks: 0, amountCents: 0 });
    expect(today).not.toBe('2020-02-27');
  });

  it.each([
    ['from=2024-13-01', /^from:/],
    ['from=2024-03-02&to=2024-03-01', /^to:/],
    ['from=2024-03-01&timeZone=Mars/Base', /^timeZone:/],
    ['from=2020-01-01&to=2024-01-01', /^to:/],
    ['', /^from:/],
  ])('answers 400 naming the field for ?%s', async (query, message) => {
    const res = await owner('GET', `/api/flex/v1/admin/billing?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('good standing', () => {
  it('is taken from drivers whose paid-up time ran out, and kept for those still paid up', async () => {
    const lapsed = await addDriver(api, {
      good_standing: true,
      expiration_ts: Date.now() - 1000,
    });
    const paid = await addDriver(api, {
      good_standing: true,
      expiration_ts: Date.now() + WEEK_MS,
    });
    await api.gateway.payments.sweepNow();
    expect((await lapsed.call('GET', '/api/flex/v1/user')).body.Item.goodStanding).toBe(false);
    expect((await paid.call('GET', '/api/flex/v1/user')).body.Item.goodStanding).toBe(true);
  });
});
