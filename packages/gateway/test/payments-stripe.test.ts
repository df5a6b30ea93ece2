// stripe-node against a local Stripe-shaped server: Checkout Sessions for a weekly subscription and
// for a number of weeks, Stripe's signed events settling them (applied once, in any order), weekly
// renewal on Stripe's test clock, dunning, cancel and resume, refunds, disputes, the Customer
// Portal, and Stripe's errors told apart: a 4xx is the driver's to fix, only 5xx/network is "retry".
import { randomUUID } from 'node:crypto';
import { WEEK_MS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { findUserByPhone } from '../src/storage/users.js';
import { readOutbox } from '../src/testing.js';
import { openCheckout } from './helpers/checkout.js';
import { addDriver, type Client, client, freshPhone } from './helpers/drivers.js';
import { type FakeStripe, startFakeStripe } from './helpers/fake-stripe.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { OWNER } from './helpers/people.js';

const SECRET_KEY = 'sk_test_fake_0123456789';
const WEBHOOK_SECRET = 'whsec_test_fake_secret';

let stripe: FakeStripe;
let api: RunningGateway;
let owner: Client;
let clock = Date.parse('2026-05-04T13:00:00Z');

const expirationOf = async (phone: string) =>
  (await findUserByPhone(api.gateway.db, 'flex', phone))?.expiration_ts ?? null;
const userIdOf = async (phone: string) =>
  (await findUserByPhone(api.gateway.db, 'flex', phone))?.id ?? '';

beforeAll(async () => {
  stripe = await startFakeStripe({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    now: () => clock,
  });
  api = await startGateway(
    {
      paymentProvider: 'stripe',
      stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: stripe.url },
      weeklyPriceCents: 1999,
      goodStandingSweepMs: 0,
    },
    { paymentsClock: () => clock },
  );
  stripe.webhookUrl = `${api.url}/api/webhooks/stripe`;
  owner = client(api.url, api.as(OWNER).authorization);
});

afterAll(async () => {
  await api?.gateway.close();
  await stripe?.close();
});

async function subscribe(call: Client) {
  const opened = await openCheckout(call, { mode: 'subscription' });
  expect(opened.status).toBe(201);
  const sessionId = new URL(opened.body.Item.url).pathname.split('/').pop() ?? '';
  await stripe.pay(sessionId);
  const sub = [...stripe.subscriptions.values()].find(
    (s) => s.metadata.checkoutId === opened.body.Item.id,
  );
  if (!sub) throw new Error('no subscription');
  return { checkout: opened.body.Item, sub };
}

describe('Stripe Checkout', () => {
  it('opens a subscription-mode session: one week, renewing weekly, for a customer made once', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'subscription', locale: 'es' });
    expect(opened.status).toBe(201);
    expect(opened.body.Item).toMatchObject({
      provider: 'stripe',
      mode: 'subscription',
      amountCents: 1999,
    });
    expect(opened.body.Item.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const session = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(session?.params).toMatchObject({
      mode: 'subscription',
      locale: 'es',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][unit_amount]': '1999',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][recurring][interval]': 'week',
      'metadata[checkoutId]': opened.body.Item.id,
      'subscription_data[metadata][userId]': await userIdOf(driver.phone),
      success_url: `${api.url}/payment?checkout=${opened.body.Item.id}`,
    });
    expect(session?.idempotencyKey).toBe(opened.body.Item.id);
    // A second checkout reuses the driver's Stripe customer.
    await openCheckout(driver.call, { mode: 'payment', weeks: 2 });
    const customers = stripe.requests.filter(
      (r) =>
        r.path === '/v1/customers' &&
        r.params['metadata[userId]'] === session?.params.client_reference_id,
    );
    expect(customers).toHaveLength(1);
  });

  it('opens a payment-mode session for N weeks, and its events add exactly N weeks once', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 3 });
    const session = [...stripe.sessions.values()].find(
      (s) => s.params['metadata[checkoutId]'] === opened.body.Item.id,
    );
    expect(session?.params).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '3',
      'payment_intent_data[metadata][weeks]': '3',
    });
    // Stripe sends checkout.session.completed and payment_intent.succeeded: one payment, 3 weeks.
    await stripe.pay(session?.id ?? '');
    expect(await expirationOf(driver.phone)).toBe(clock + 3 * WEEK_MS);
    const payments = (await driver.call('GET', '/api/flex/v1/payments')).body.Items;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      status: 'succeeded',
      weeks: 3,
      amountCents: 5997,
      kind: 'one_off',
    });
    const state = await driver.call('GET', `/api/flex/v1/checkout/${opened.body.Item.id}`);
    expect(state.body.Item.status).toBe('complete');
  });

  it('keeps the decline code of a failed attempt for the app to explain', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 1 });
    const session = [...stripe.sessions.values()].find(
      (s) => s.params['metadata[checkoutId]'] === opened.body.Item.id,
    );
    await stripe.pay(session?.id ?? '', 'declined');
    const state = await driver.call('GET', `/api/flex/v1/checkout/${opened.body.Item.id}`);
    expect(state.body.Item).toMatchObject({ status: 'open', failureCode: 'generic_decline' });
    expect(await expirationOf(driver.phone)).toBeNull();
  });

  it('marks a checkout whose PaymentIntent was canceled as expired', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 1 });
    const session = [...stripe.sessions.values()].find(
      (s) => s.params['metadata[checkoutId]'] === opened.body.Item.id,
    );
    await stripe.send('payment_intent.canceled', {
      id: session?.paymentIntent,
      object: 'payment_intent',
      amount: 1999,
      metadata: {
        checkoutId: opened.body.Item.id,
        userId: await userIdOf(driver.phone),
        weeks: '1',
      },
    });
    const state = await driver.call('GET', `/api/flex/v1/checkout/${opened.body.Item.id}`);
    expect(state.body.Item.status).toBe('expired');
  });
});

describe('weekly subscription on Stripe', () => {
  it('renews a week later by exactly one week from the end of the current one', async () => {
    const start = clock;
    const driver = await addDriver(api);
    const { sub } = await subscribe(driver.call);
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    const billing = await driver.call('GET', '/api/flex/v1/billing');
    expect(billing.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    clock = start + WEEK_MS + 60_000;
    await stripe.advance(clock);
    // The renewal billed at the period end adds a week to the end, not to the moment it was paid.
    expect(await expirationOf(driver.phone)).toBe(start + 2 * WEEK_MS);
    const invoices = (await driver.call('GET', '/api/flex/v1/billing')).body.invoices;
    expect(invoices.map((i: { kind: string }) => i.kind)).toEqual(['renewal', 'renewal']);
    expect(invoices[0].receiptUrl).toMatch(/^https:\/\/invoice\.stripe\.com\/i\/in_/);
    expect(sub.status).toBe('active');
  });

  it('a failed renewal starts dunning with an alert to update the card; a later paid retry renews', async () => {
    const start = clock;
    const driver = await addDriver(api);
    const { sub } = await subscribe(driver.call);
    sub.cardFails = true;
    clock = start + WEEK_MS;
    await stripe.advance(clock);
    const billing = (await driver.call('GET', '/api/flex/v1/billing')).body;
    expect(billing.subscription).toMatchObject({
      status: 'past_due',
      dunningAttempts: 1,
      nextRetryTimestamp: Math.floor(clock / 1000) * 1000 + 86_400_000,
      lastFailureCode: 'card_declined',
    });
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    const texts = await readOutbox(api.gateway.db, { to: driver.phone });
    expect(texts.map((t) => t.body).join('\n')).toMatch(
      /payment of \$19\.99 failed.*\/flex\/billing/,
    );

    // The driver updates the card in the Customer Portal; Stripe's retry pays the invoice.
    sub.cardFails = false;
    clock += 86_400_000;
    await stripe.advance(clock);
    expect(await expirationOf(driver.phone)).toBe(start + 2 * WEEK_MS);
    const after = (await driver.call('GET', '/api/flex/v1/billing')).body;
    expect(after.subscription).toMatchObject({ status: 'active', dunningAttempts: 0 });
  });

  it('cancels at the end of the paid week and resumes, through Stripe', async () => {
    const start = clock;
    const driver = await addDriver(api);
    const { sub } = await subscribe(driver.call);
    const canceled = await driver.call('POST', '/api/flex/v1/billing/subscription', {
      cancelAtPeriodEnd: true,
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body.subscription.cancelAtPeriodEnd).toBe(true);
    expect(sub.cancelAtPeriodEnd).toBe(true);
    const update = stripe.requests.filter((r) => r.path === `/v1/subscriptions/${sub.id}`).at(-1);
    expect(update?.params.cancel_at_period_end).toBe('true');

    const resumed = await driver.call('POST', '/api/flex/v1/billing/subscription', {
      cancelAtPeriodEnd: false,
    });
    expect(resumed.body.subscription.cancelAtPeriodEnd).toBe(false);
    await driver.call('POST', '/api/flex/v1/billing/subscription', { cancelAtPeriodEnd: true });

    clock = start + WEEK_MS;
    await stripe.advance(clock);
    const billing = (await driver.call('GET', '/api/flex/v1/billing')).body;
    expect(billing.subscription.status).toBe('canceled');
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    await api.gateway.payments.sweepNow();
    // The sweep writes outside any request: callers see it within the principal cache's interval.
    await eventually(async () =>
      expect((await driver.call('GET', '/api/flex/v1/user')).body.Item.goodStanding).toBe(false),
    );
  });

  it('opens the Customer Portal for the driver’s customer, returning to the billing page', async () => {
    const driver = await addDriver(api);
    const none = await driver.call('POST', '/api/flex/v1/billing/portal', {});
    expect(none.status).toBe(409);
    await subscribe(driver.call);
    const portal = await driver.call('POST', '/api/flex/v1/billing/portal?locale=es', {});
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const request = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
    expect(request?.params).toMatchObject({ return_url: `${api.url}/flex/billing`, locale: 'es' });
  });
});

describe('refunds and disputes', () => {
  it('a billing admin refunds whole weeks with a reason; charge.refunded takes them back', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 3 });
    const session = [...stripe.sessions.values()].find(
      (s) => s.params['metadata[checkoutId]'] === opened.body.Item.id,
    );
    await stripe.pay(session?.id ?? '');
    const paid = await expirationOf(driver.phone);
    const payment = (await driver.call('GET', '/api/flex/v1/payments')).body.Items[0];

    const forbidden = await driver.call('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 1,
      reason: 'asked nicely',
    });
    expect(forbidden.status).toBe(403);

    const refund = await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 2,
      reason: 'Service outage on 4 May',
    });
    expect(refund.status).toBe(201);
    expect(refund.body.Item).toMatchObject({
      weeks: 2,
      amountCents: 3998,
      reason: 'Service outage on 4 May',
    });
    expect(stripe.refunds.at(-1)).toMatchObject({
      payment_intent: session?.paymentIntent,
      amount: '3998',
    });
    expect(await expirationOf(driver.phone)).toBe((paid ?? 0) - 2 * WEEK_MS);
    const listed = (await driver.call('GET', `/api/flex/v1/payments/${payment.id}`)).body.Item;
    expect(listed.refundedWeeks).toBe(2);

    const tooMany = await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 2,
      reason: 'again',
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.field).toBe('weeks');
    const overview = (await owner('GET', '/api/flex/v1/admin/billing/overview')).body;
    expect(overview.refunds[0]).toMatchObject({
      paymentId: payment.id,
      reason: 'Service outage on 4 May',
      weeks: 2,
    });
  });

  it('refunds a renewal week: the PaymentIntent its invoice event left out is asked of Stripe', async () => {
    const start = clock;
    const driver = await addDriver(api);
    await subscribe(driver.call);
    const invoice = (await driver.call('GET', '/api/flex/v1/billing')).body.invoices[0];
    const refund = await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: invoice.id,
      weeks: 1,
      reason: 'Renewal charged after cancel was asked by phone',
    });
    expect(refund.status).toBe(201);
    const lookup = stripe.requests.filter((r) => r.path === '/v1/invoice_payments').at(-1);
    expect(lookup?.method).toBe('GET');
    expect(stripe.refunds.at(-1)?.amount).toBe('1999');
    expect(await expirationOf(driver.phone)).toBe(start);
  });

  it('charge.dispute.created flags the account for billing admins', async () => {
    const driver = await addDriver(api);
    const opened = await openCheckout(driver.call, { mode: 'payment', weeks: 1 });
    const session = [...stripe.sessions.values()].find(
      (s) => s.params['metadata[checkoutId]'] === opened.body.Item.id,
    );
    await stripe.pay(session?.id ?? '');
    await stripe.dispute(session?.paymentIntent ?? '');
    const overview = (await owner('GET', '/api/flex/v1/admin/billing/overview')).body;
    expect(
      overview.flags.find((f: { phoneNumber: string }) => f.phoneNumber === driver.phone),
    ).toMatchObject({
      kind: 'dispute',
      reason: 'fraudulent',
      amountCents: 1999,
    });
  });
});

describe("Stripe's errors", () => {
  it.each([
    [
      {
        status: 402,
        type: 'card_error',
        code: 'card_declined',
        message: 'Your card was declined.',
      },
      402,
      'payment_declined',
      /try another card/,
    ],
    [
      {
        status: 400,
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: "No such customer: 'cus_gone'",
      },
      400,
      'payment_request_invalid',
      /resource_missing.*No such customer.*try again/,
    ],
  ])(
    'a %o refusal is a 4xx the driver can act on, not "retry"',
    async (failure, status, code, message) => {
      const driver = await addDriver(api);
      stripe.failNext = failure;
      const res = await openCheckout(driver.call, { mode: 'payment', weeks: 1 });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toMatch(message);
      expect(res.headers.get('retry-after')).toBeNull();
      // Nothing was opened: the same key works once Stripe answers.
      expect((await openCheckout(driver.call, { mode: 'payment', weeks: 1 })).status).toBe(201);
    },
  );

  it.each([
    ['a 500', { status: 500, type: 'api_error', message: 'Something went wrong' } as const],
    ['a cut connection', 'drop' as const],
  ])(
    '%s (after stripe-node’s own retries) is 503 unavailable with Retry-After',
    async (_what, failure) => {
      const driver = await addDriver(api);
      stripe.failNext = failure;
      stripe.failTimes = 3;
      const key = randomUUID();
      const res = await openCheckout(driver.call, { mode: 'payment', weeks: 1 }, key);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('unavailable');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const retried = await openCheckout(driver.call, { mode: 'payment', weeks: 1 }, key);
      expect(retried.status).toBe(201);
    },
  );
});

describe('the Stripe webhook', () => {
  const invoicePaid = (userId: string, subscription: string) => ({
    id: `in_${randomUUID().slice(0, 8)}`,
    object: 'invoice',
    customer: 'cus_x',
    total: 1999,
    amount_paid: 1999,
    attempt_count: 1,
    next_payment_attempt: null,
    parent: { subscription_details: { subscription, metadata: { userId } } },
  });

  it('applies an event id once, however often it is delivered', async () => {
    const driver = await addDriver(api);
    const userId = await userIdOf(driver.phone);
    const object = invoicePaid(userId, `sub_${randomUUID().slice(0, 8)}`);
    const eventId = `evt_${randomUUID()}`;
    const first = await stripe.send('invoice.paid', object, { id: eventId });
    expect(first.status).toBe(200);
    const expiration = await expirationOf(driver.phone);
    expect(expiration).toBe(clock + WEEK_MS);
    const replays = await Promise.all(
      Array.from({ length: 5 }, () => stripe.send('invoice.paid', object, { id: eventId })),
    );
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await expirationOf(driver.phone)).toBe(expiration);
  });

  it('a redelivered old event does not undo a newer one: each event id is applied once', async () => {
    const driver = await addDriver(api);
    const { sub } = await subscribe(driver.call);
    const state = (cancel: boolean) => ({
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: 'active',
      cancel_at_period_end: cancel,
      metadata: sub.metadata,
    });
    const canceling = `evt_${randomUUID()}`;
    await stripe.send('customer.subscription.updated', state(true), { id: canceling });
    await stripe.send('customer.subscription.updated', state(false));
    // Stripe retries the first delivery after the second one arrived.
    const again = await stripe.send('customer.subscription.updated', state(true), {
      id: canceling,
    });
    expect(again.status).toBe(200);
    const billing = (await driver.call('GET', '/api/flex/v1/billing')).body;
    expect(billing.subscription.cancelAtPeriodEnd).toBe(false);
  });

  it('refuses a genuine signature older than the tolerance (a replayed capture), and a forged one', async () => {
    const driver = await addDriver(api);
    const object = invoicePaid(await userIdOf(driver.phone), `sub_${randomUUID().slice(0, 8)}`);
    const stale = await stripe.send('invoice.paid', object, {
      timestamp: Math.floor(clock / 1000) - 301,
    });
    expect(stale.status).toBe(400);
    const unsigned = await fetch(`${api.url}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      body: stale.payload,
    });
    expect(unsigned.status).toBe(400);
    expect(await expirationOf(driver.phone)).toBeNull();
    const fresh = await stripe.send('invoice.paid', object);
    expect(fresh.status).toBe(200);
    expect(await expirationOf(driver.phone)).toBe(clock + WEEK_MS);
  });

  it('acknowledges events it does not act on, and events about no driver of ours', async () => {
    expect(
      (await stripe.send('customer.created', { id: 'cus_1', object: 'customer' })).status,
    ).toBe(200);
    const orphan = invoicePaid('usr_nobody', 'sub_nobody');
    expect((await stripe.send('invoice.paid', orphan)).status).toBe(200);
  });

  it('leaves the rest of the API on ordinary JSON parsing', async () => {
    const driver = await addDriver(api);
    const res = await driver.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: freshPhone(),
    });
    // The handler's own answer (invitations need a first payment): the body was parsed as JSON
    // and validated on the way.
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    const bad = await driver.call('POST', '/api/flex/v1/invitations', { phoneNumber: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('phoneNumber');
  });

  it('refuses a malformed event body with 400, naming nothing it cannot read', async () => {
    const res = await stripe.send('invoice.paid', { id: 'in_1', total: 'lots' });
    expect(res.status).toBe(400);
  });
});
