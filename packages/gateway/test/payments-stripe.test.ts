// The Stripe provider against a local fake of Stripe's PaymentIntents endpoint, and Stripe's
// webhook with payloads signed the way Stripe signs them (and forged ones).
import { randomUUID } from 'node:crypto';
import { WEEK_MS } from '@blockcatch/sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByPhone } from '../src/storage/users.js';
import { addDriver, type Client, client, freshPhone } from './helpers/drivers.js';
import { type FakeStripe, startFakeStripe } from './helpers/fake-stripe.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';

const SECRET_KEY = 'sk_test_fake_0123456789';
const WEBHOOK_SECRET = 'whsec_test_fake_secret';

let stripeFake: FakeStripe;
let api: RunningGateway;

const pay = (call: Client, body: unknown, key = randomUUID()) =>
  call('POST', '/api/flex/v1/payments', body, { 'idempotency-key': key });

const expirationOf = async (phone: string) =>
  (await findUserByPhone(api.gateway.db, 'flex', phone))?.expiration_ts ?? null;

function intentEvent(type: string, intent: { id: string; paymentId: string }) {
  return JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: intent.id,
        object: 'payment_intent',
        status: type === 'payment_intent.succeeded' ? 'succeeded' : 'requires_payment_method',
        metadata: { paymentId: intent.paymentId },
        last_payment_error: type === 'payment_intent.succeeded' ? null : { code: 'card_declined' },
      },
    },
  });
}

async function postWebhook(payload: string, signature: string) {
  const response = await fetch(`${api.url}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
  return { status: response.status, body: await response.json() };
}

const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

beforeAll(async () => {
  stripeFake = await startFakeStripe(SECRET_KEY);
  api = await startGateway({
    paymentProvider: 'stripe',
    stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, baseUrl: stripeFake.url },
    weeklyPriceCents: 1999,
  });
});

afterAll(async () => {
  await api?.gateway.close();
  await stripeFake?.close();
});

describe('Stripe PaymentIntents', () => {
  it('charges weeks × price with a confirmed PaymentIntent, under our payment id as Idempotency-Key', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 3, paymentMethodId: 'pm_card_visa' });
    expect(res.status).toBe(201);
    expect(res.body.payment).toMatchObject({
      status: 'succeeded',
      amountCents: 5997,
      provider: 'stripe',
      cardLast4: '4242',
    });
    const created = stripeFake.created.find((c) => c.idempotencyKey === res.body.payment.id);
    expect(created?.params.get('amount')).toBe('5997');
    expect(created?.params.get('currency')).toBe('usd');
    expect(created?.params.get('confirm')).toBe('true');
    expect(created?.params.get('payment_method')).toBe('pm_card_visa');
    expect(created?.params.get('metadata[paymentId]')).toBe(res.body.payment.id);
    expect(await expirationOf(driver.phone)).toBe(res.body.payment.expirationDateTimestamp);
  });

  it('answers a declined card with 402 Payment failed', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 1, paymentMethodId: 'pm_card_chargeDeclined' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ code: 'payment_failed', message: 'Payment failed' });
    expect(await expirationOf(driver.phone)).toBeNull();
  });

  it('creates one PaymentIntent for 10 concurrent requests with one key', async () => {
    const driver = await addDriver(api);
    const before = stripeFake.created.length;
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        pay(driver.call, { weeks: 1, paymentMethodId: 'pm_card_visa' }, key),
      ),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    expect(stripeFake.created.length).toBe(before + 1);
  });

  it('answers 502 when Stripe cannot be heard, and a retry with the same key charges once', async () => {
    const driver = await addDriver(api);
    const key = randomUUID();
    // Stripe charges, then every answer (the client's own retries included) is lost.
    stripeFake.dropAfterCharge = 3;
    const lost = await pay(driver.call, { weeks: 1, paymentMethodId: 'pm_card_visa' }, key);
    expect(lost.status).toBe(502);
    expect(lost.body.code).toBe('payment_provider_unavailable');
    expect(await expirationOf(driver.phone)).toBeNull();

    const retried = await pay(driver.call, { weeks: 1, paymentMethodId: 'pm_card_visa' }, key);
    expect(retried.status).toBe(201);
    const paymentId = retried.body.payment.id as string;
    expect(stripeFake.created.filter((c) => c.idempotencyKey === paymentId)).toHaveLength(1);
    expect(await expirationOf(driver.phone)).toBe(retried.body.payment.expirationDateTimestamp);
  });

  it('refuses raw card numbers when Stripe is the provider', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, {
      weeks: 1,
      card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^card:.*paymentMethodId/);
    expect(JSON.stringify(res.body)).not.toContain('4242424242424242');
  });

  it('says so when the price endpoint is asked which provider takes the payment', async () => {
    const res = await client(api.url, null)('GET', '/api/flex/v1/price');
    expect(res.body).toMatchObject({ provider: 'stripe', weeklyPriceCents: 1999 });
  });
});

describe('Stripe webhook', () => {
  it('settles a processing payment on a signed payment_intent.succeeded, once even if redelivered', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 2, paymentMethodId: 'pm_card_processing' });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe("We're processing your payment");
    const paymentId = res.body.payment.id as string;
    const intentId = stripeFake.created.find((c) => c.idempotencyKey === paymentId)?.id ?? '';
    const payload = intentEvent('payment_intent.succeeded', { id: intentId, paymentId });

    const before = Date.now();
    expect(await postWebhook(payload, sign(payload))).toEqual({
      status: 200,
      body: { received: true },
    });
    const expiration = (await expirationOf(driver.phone)) ?? 0;
    expect(expiration).toBeGreaterThanOrEqual(before + 2 * WEEK_MS);
    expect((await driver.call('GET', `/api/flex/v1/payments/${paymentId}`)).body.Item.status).toBe(
      'succeeded',
    );

    expect((await postWebhook(payload, sign(payload))).status).toBe(200);
    expect(await expirationOf(driver.phone)).toBe(expiration);
  });

  it('marks a processing payment failed on payment_intent.payment_failed', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 1, paymentMethodId: 'pm_card_processing' });
    const paymentId = res.body.payment.id as string;
    const intentId = stripeFake.created.find((c) => c.idempotencyKey === paymentId)?.id ?? '';
    const payload = intentEvent('payment_intent.payment_failed', { id: intentId, paymentId });
    expect((await postWebhook(payload, sign(payload))).status).toBe(200);
    expect((await driver.call('GET', `/api/flex/v1/payments/${paymentId}`)).body.Item.status).toBe(
      'failed',
    );
    expect(await expirationOf(driver.phone)).toBeNull();
  });

  it('refuses forged events (wrong secret, altered body, no signature) and changes nothing', async () => {
    const driver = await addDriver(api);
    const res = await pay(driver.call, { weeks: 1, paymentMethodId: 'pm_card_processing' });
    const paymentId = res.body.payment.id as string;
    const payload = intentEvent('payment_intent.succeeded', { id: 'pi_forged', paymentId });

    const wrongSecret = await postWebhook(payload, sign(payload, 'whsec_attacker'));
    expect(wrongSecret).toEqual({
      status: 400,
      body: {
        code: 'bad_signature',
        message: 'Stripe-Signature does not match this payload.',
        field: 'stripe-signature',
      },
    });
    const altered = await postWebhook(
      payload.replace('"succeeded"', '"succeeded" '),
      sign(payload),
    );
    expect(altered.status).toBe(400);
    const unsigned = await fetch(`${api.url}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    expect(unsigned.status).toBe(400);
    expect(await expirationOf(driver.phone)).toBeNull();
    expect((await driver.call('GET', `/api/flex/v1/payments/${paymentId}`)).body.Item.status).toBe(
      'processing',
    );
  });

  it('acknowledges events it does not act on', async () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    expect(await postWebhook(payload, sign(payload))).toEqual({
      status: 200,
      body: { received: true },
    });
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
});
