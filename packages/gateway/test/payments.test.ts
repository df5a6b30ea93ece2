// Hosted checkout with the sandbox processor, over HTTP as a browser drives it: the gateway answers
// a checkout URL, the card is typed on the sandbox's own page (Stripe's test cards), the driver is
// sent back to the app, and the sandbox's signed events settle the payment. No product route takes
// a card; the sandbox's webhook is checked by signature and age, and applies each event once.
import { randomUUID } from 'node:crypto';
import {
  billingResponseSchema,
  checkoutResponseSchema,
  paymentsResponseSchema,
  priceResponseSchema,
  WEEK_MS,
} from '@blockcatch/sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSandboxCharges } from '../src/storage/sandbox-card-charges.js';
import { findUserByPhone } from '../src/storage/users.js';
import {
  authenticate,
  CARDS,
  checkoutAndPay,
  openCheckout,
  payWithCard,
} from './helpers/checkout.js';
import { addDriver, type Client, client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, OWNER } from './helpers/people.js';

let api: RunningGateway;
let owner: Client;
let admin: Client;
const clock = Date.parse('2026-03-02T15:00:00Z');

const expirationOf = async (phone: string) =>
  (await findUserByPhone(api.gateway.db, 'flex', phone))?.expiration_ts ?? null;

beforeAll(async () => {
  api = await startGateway(
    { weeklyPriceCents: 2500, goodStandingSweepMs: 0 },
    { paymentsClock: () => clock },
  );
  owner = client(api.url, api.as(OWNER).authorization);
  admin = client(api.url, api.as(ADMIN).authorization);
});

afterAll(async () => {
  await api?.gateway.close();
});

describe('price', () => {
  it('sells 1 to 52 weeks at the configured weekly price through the sandbox', async () => {
    const res = await client(api.url, null)('GET', '/api/flex/v1/price');
    expect(priceResponseSchema.parse(res.body)).toEqual({
      weeklyPriceCents: 2500,
      currency: 'usd',
      minWeeks: 1,
      maxWeeks: 52,
      provider: 'sandbox',
    });
  });
});

describe('hosted checkout, paying a number of weeks once', () => {
  it('answers a URL on the sandbox processor, whose page takes the card and sends the driver back paid', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 2 });
    expect(opened.status).toBe(201);
    const checkout = checkoutResponseSchema.parse(opened.body).Item;
    expect(checkout).toMatchObject({
      mode: 'payment',
      weeks: 2,
      amountCents: 5000,
      provider: 'sandbox',
      status: 'open',
    });
    expect(checkout.url).toMatch(/^\/sandbox\/checkout\/cs_sandbox_[0-9a-f]{24}$/);

    const page = await fetch(new URL(checkout.url, api.url));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Sandbox Pay');
    expect(html).toContain('Card number');
    expect(html).toContain('$50.00');

    const paid = await payWithCard(api.url, checkout.url, CARDS.succeeds);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${api.url}/payment?checkout=${checkout.id}`);
    // The events were applied before the redirect: the app the driver returns to already knows.
    const after = await driver.call('GET', `/api/flex/v1/checkout/${checkout.id}`);
    expect(after.body.Item).toMatchObject({ status: 'complete', failureCode: null });
    expect(await expirationOf(driver.phone)).toBe(clock + 2 * WEEK_MS);
    const history = paymentsResponseSchema.parse(
      (await driver.call('GET', '/api/flex/v1/payments')).body,
    );
    expect(history.Items).toHaveLength(1);
    expect(history.Items[0]).toMatchObject({
      status: 'succeeded',
      kind: 'one_off',
      weeks: 2,
      amountCents: 5000,
      cardLast4: '4242',
      expirationDateTimestamp: clock + 2 * WEEK_MS,
    });
    const receipt = await fetch(new URL(history.Items[0]?.receiptUrl ?? '', api.url));
    expect(await receipt.text()).toContain('$50.00');
    const me = await driver.call('GET', '/api/flex/v1/user');
    expect(me.body.Item.goodStanding).toBe(true);
  });

  it('adds new weeks to the end of paid time still ahead', async () => {
    const current = clock + 3 * 86_400_000;
    const driver = await addDriver(api, { expiration_ts: current, good_standing: true });
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 1 });
    expect(await expirationOf(driver.phone)).toBe(current + WEEK_MS);
  });

  it.each([
    [CARDS.declined, 'card_declined', 'Your bank declined the card: try another card.'],
    [
      CARDS.insufficientFunds,
      'insufficient_funds',
      'Your card has insufficient funds: try another card.',
    ],
  ])(
    '%s is refused on the page in clear words, buys nothing, and the page stays open',
    async (number, code, words) => {
      const driver = await addDriver(api);
      const { checkout, page } = await checkoutAndPay(
        api.url,
        driver.call,
        { mode: 'payment', weeks: 1 },
        number,
      );
      expect(page.status).toBe(402);
      expect(page.html).toContain(words);
      const state = await driver.call('GET', `/api/flex/v1/checkout/${checkout.id}`);
      expect(state.body.Item).toMatchObject({ status: 'open', failureCode: code });
      expect(await expirationOf(driver.phone)).toBeNull();
      // Another card on the same page succeeds.
      const retried = await payWithCard(api.url, checkout.url, CARDS.succeeds);
      expect(retried.status).toBe(303);
      expect(await expirationOf(driver.phone)).toBe(clock + WEEK_MS);
      const history = (await driver.call('GET', '/api/flex/v1/payments')).body.Items;
      expect(history.map((p: { status: string }) => p.status)).toEqual(['succeeded']);
    },
  );

  it('4000 0025 0000 3155 asks the bank: denied is refused, approved pays', async () => {
    const driver = await addDriver(api);
    const { checkout, page } = await checkoutAndPay(
      api.url,
      driver.call,
      { mode: 'payment', weeks: 1 },
      CARDS.authenticate,
    );
    expect(page.status).toBe(200);
    expect(page.html).toContain('Confirm this payment with your bank');
    const denied = await authenticate(api.url, checkout.url, 'deny');
    expect(denied.status).toBe(402);
    expect(denied.html).toContain('Your bank could not confirm the payment');
    expect(await expirationOf(driver.phone)).toBeNull();
    expect(
      (await driver.call('GET', `/api/flex/v1/checkout/${checkout.id}`)).body.Item.failureCode,
    ).toBe('authentication_required');

    expect((await payWithCard(api.url, checkout.url, CARDS.authenticate)).status).toBe(200);
    const approved = await authenticate(api.url, checkout.url, 'approve');
    expect(approved.status).toBe(303);
    expect(await expirationOf(driver.phone)).toBe(clock + WEEK_MS);
  });

  it('refuses a mistyped number on the page without charging anything', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 1 });
    const before = await countSandboxCharges(api.gateway.db, 'failed');
    const page = await payWithCard(api.url, opened.body.Item.url, '4242 4242 4242 4241');
    expect(page.status).toBe(400);
    expect(page.html).toContain('Your card number is not valid');
    expect(page.html).not.toContain('4242 4242 4242 4241');
    expect(await countSandboxCharges(api.gateway.db, 'failed')).toBe(before);
  });

  it('a paid checkout cannot be paid again', async () => {
    const driver = await addDriver(api);
    const { checkout } = await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 1 });
    const again = await payWithCard(api.url, checkout.url, CARDS.succeeds);
    expect(again.status).toBe(409);
    expect(await expirationOf(driver.phone)).toBe(clock + WEEK_MS);
  });
});

describe('opening a checkout', () => {
  it('answers one checkout per Idempotency-Key, however many requests arrive together', async () => {
    const driver = await addDriver(api);
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        openCheckout(driver.call, { mode: 'payment', weeks: 3 }, key),
      ),
    );
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(replies.map((r) => r.body.Item.id)).size).toBe(1);
    const other = await openCheckout(driver.call, { mode: 'payment', weeks: 2 }, key);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('needs a session, and keeps checkouts private', async () => {
    const a = await addDriver(api);
    const b = await addDriver(api);
    expect((await openCheckout(client(api.url, null), { mode: 'payment' })).status).toBe(401);
    const opened = await openCheckout(a.call, { mode: 'payment' });
    expect((await b.call('GET', `/api/flex/v1/checkout/${opened.body.Item.id}`)).status).toBe(404);
  });

  it.each([
    ['zero weeks', { mode: 'payment', weeks: 0 }, /^weeks:/],
    ['53 weeks', { mode: 'payment', weeks: 53 }, /^weeks:/],
    ['no plan', { weeks: 1 }, /^mode:/],
    ['a plan of its own', { mode: 'monthly' }, /^mode:/],
  ])('answers 400 naming the field for %s', async (_what, body, message) => {
    const driver = await addDriver(api);
    const res = await driver.call('POST', '/api/flex/v1/checkout', body, {
      'idempotency-key': randomUUID(),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('no product route accepts a card number', () => {
  const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

  it('every POST under the payment and billing API answers 400 to a card, and never echoes it', async () => {
    const routes = api.gateway.routes.filter(
      (r) =>
        (Array.isArray(r.method) ? r.method : [r.method]).includes('POST') &&
        /^\/api\/(flex\/v1\/(checkout|billing|payments|admin\/billing)|sandbox\/payments)/.test(
          r.url,
        ),
    );
    expect(routes.map((r) => r.url).sort()).toEqual([
      '/api/flex/v1/admin/billing/refunds',
      '/api/flex/v1/billing/portal',
      '/api/flex/v1/billing/subscription',
      '/api/flex/v1/checkout',
    ]);
    const driver = await addDriver(api);
    for (const route of routes) {
      for (const body of [
        { card: CARD, weeks: 1, mode: 'payment' },
        { mode: 'payment', weeks: 1, cardNumber: CARD.number },
        { paymentId: 'pay_x', weeks: 1, reason: 'because', number: CARD.number, cvc: '123' },
      ]) {
        const call = route.url.includes('/admin/') ? owner : driver.call;
        const res = await call('POST', route.url, body, { 'idempotency-key': randomUUID() });
        expect(res.status, route.url).toBe(400);
        expect(res.body.code).toBe('validation');
        expect(res.body.message).toMatch(/card details are typed on the card processor/);
        expect(JSON.stringify(res.body)).not.toContain(CARD.number);
      }
    }
  });

  it('the old card-taking payment route is gone', async () => {
    const driver = await addDriver(api);
    const res = await driver.call(
      'POST',
      '/api/flex/v1/payments',
      { weeks: 1, card: CARD },
      { 'idempotency-key': randomUUID() },
    );
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain(CARD.number);
  });
});

describe('the sandbox webhook', () => {
  const postEvent = (payload: string, signature: string) =>
    fetch(`${api.url}/api/webhooks/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });

  function paidEvent(userId: string, id = `evt_${randomUUID()}`) {
    return JSON.stringify({
      id,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(clock / 1000),
      data: {
        object: {
          id: `pi_${randomUUID()}`,
          object: 'payment_intent',
          amount: 2500,
          metadata: { userId, weeks: '52' },
        },
      },
    });
  }

  it('refuses events not signed with the sandbox’s own secret, and changes nothing', async () => {
    const driver = await addDriver(api);
    const userId = (await findUserByPhone(api.gateway.db, 'flex', driver.phone))?.id ?? '';
    const payload = paidEvent(userId);
    const forged = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_guessed',
      timestamp: Math.floor(clock / 1000),
    });
    const res = await postEvent(payload, forged);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'bad_signature',
      message: 'Stripe-Signature does not match this payload.',
      field: 'stripe-signature',
    });
    expect((await postEvent(payload, 't=1,v1=00')).status).toBe(400);
    expect(await expirationOf(driver.phone)).toBeNull();
  });
});

describe('admin billing report', () => {
  it('lists the day’s succeeded payments with per-day totals, for billing-details admins only', async () => {
    const driver = await addDriver(api);
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 4 });
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 1 }, CARDS.declined);
    const today = new Date(clock).toISOString().slice(0, 10);
    const path = `/api/flex/v1/admin/billing?from=${today}&to=${today}&timeZone=UTC`;
    const res = await owner('GET', path);
    expect(res.status).toBe(200);
    const report = billingResponseSchema.parse(res.body);
    const mine = report.Items.filter((p) => p.phoneNumber === driver.phone);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ weeks: 4, amountCents: 10_000, status: 'succeeded' });
    const sum = report.Items.reduce((s, p) => s + p.amountCents, 0);
    expect(report.totals.amountCents).toBe(sum);
    expect((await admin('GET', path)).status).toBe(403);
    expect((await driver.call('GET', path)).status).toBe(403);
  });

  it.each([
    ['from=2024-13-01', /^from:/],
    ['from=2024-03-02&to=2024-03-01', /^to:/],
    ['from=2024-03-01&timeZone=Mars/Base', /^timeZone:/],
    ['from=2020-01-01&to=2024-01-01', /^to:/],
  ])('answers 400 naming the field for ?%s', async (query, message) => {
    const res = await owner('GET', `/api/flex/v1/admin/billing?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});
