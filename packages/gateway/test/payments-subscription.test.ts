// The weekly subscription with the sandbox processor and an injected clock: renewal a week later,
// cancel at the end of the paid week and resume, a failed renewal in dunning (retried on schedule,
// the driver alerted, standing kept while paid time lasts) ended by a card update or by the last
// retry, refunds of whole weeks, disputes, referral credit on the next renewal, and the billing
// admins' overview.
import { WEEK_MS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../src/storage/outbox.js';
import { findUserByPhone } from '../src/storage/users.js';
import { CARDS, checkoutAndPay, postForm } from './helpers/checkout.js';
import { addDriver, type Client, client, freshPhone } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { OWNER } from './helpers/people.js';

const DAY = 86_400_000;
const PRICE = 2500;

let api: RunningGateway;
let owner: Client;
let clock = Date.parse('2026-04-06T16:00:00Z');

const expirationOf = async (phone: string) =>
  (await findUserByPhone(api.gateway.db, 'flex', phone))?.expiration_ts ?? null;
const standingOf = async (call: Client) =>
  (await call('GET', '/api/flex/v1/user')).body.Item.goodStanding as boolean;
const billingOf = async (call: Client) => (await call('GET', '/api/flex/v1/billing')).body;

/** Moves the clock and runs the billing sweep, as its timer would. */
async function at(time: number) {
  clock = time;
  await api.gateway.payments.sweepNow();
}

async function subscribe(call: Client) {
  const { page } = await checkoutAndPay(api.url, call, { mode: 'subscription' });
  expect(page.status).toBe(303);
}

/** Saves a new card in the sandbox's billing portal, as the driver does from the Billing page. */
async function updateCard(call: Client, number: string) {
  const portal = await call('POST', '/api/flex/v1/billing/portal', {});
  expect(portal.status).toBe(200);
  const path = `${new URL(portal.body.url, api.url).pathname}/card`;
  return postForm(api.url, path, { number, expiry: '12/40', cvc: '123' });
}

beforeAll(async () => {
  api = await startGateway(
    { weeklyPriceCents: PRICE, goodStandingSweepMs: 0, quietHours: false },
    { paymentsClock: () => clock },
  );
  owner = client(api.url, api.as(OWNER).authorization);
});

afterAll(async () => {
  await api?.gateway.close();
});

describe('weekly renewal', () => {
  it('renews by itself a week later, by exactly one week from the end of the paid one', async () => {
    const start = clock;
    const driver = await addDriver(api);
    await subscribe(driver.call);
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    expect((await billingOf(driver.call)).subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEndTimestamp: start + WEEK_MS,
    });

    await at(start + WEEK_MS - DAY);
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    await at(start + WEEK_MS + 5 * 60_000);
    expect(await expirationOf(driver.phone)).toBe(start + 2 * WEEK_MS);
    // A sweep run twice bills once.
    await at(start + WEEK_MS + 10 * 60_000);
    expect(await expirationOf(driver.phone)).toBe(start + 2 * WEEK_MS);
    const billing = await billingOf(driver.call);
    expect(billing.invoices).toHaveLength(2);
    expect(
      billing.invoices.every(
        (p: { kind: string; amountCents: number }) =>
          p.kind === 'renewal' && p.amountCents === PRICE,
      ),
    ).toBe(true);
    expect(billing.subscription.currentPeriodEndTimestamp).toBe(start + 2 * WEEK_MS);
    expect(await standingOf(driver.call)).toBe(true);
  });

  it('paying N weeks once stays possible beside it, and adds to the end', async () => {
    const start = clock;
    const driver = await addDriver(api);
    await subscribe(driver.call);
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 3 });
    expect(await expirationOf(driver.phone)).toBe(start + 4 * WEEK_MS);
    // A second subscription is refused: the first one renews already.
    const again = await checkoutAndPay(api.url, driver.call, { mode: 'subscription' }).catch(
      (error: Error) => error.message,
    );
    expect(again).toMatch(/checkout: 409/);
  });
});

describe('cancel and resume', () => {
  it('cancels at the end of the paid week: no charge, and standing lost when the week runs out', async () => {
    const start = clock;
    const driver = await addDriver(api);
    await subscribe(driver.call);
    const canceled = await driver.call('POST', '/api/flex/v1/billing/subscription', {
      cancelAtPeriodEnd: true,
    });
    expect(canceled.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    const resumed = await driver.call('POST', '/api/flex/v1/billing/subscription', {
      cancelAtPeriodEnd: false,
    });
    expect(resumed.body.subscription.cancelAtPeriodEnd).toBe(false);
    await driver.call('POST', '/api/flex/v1/billing/subscription', { cancelAtPeriodEnd: true });
    const overview = (await owner('GET', '/api/flex/v1/admin/billing/overview')).body;
    expect(
      overview.cancellations.some((c: { phoneNumber: string }) => c.phoneNumber === driver.phone),
    ).toBe(true);

    await at(start + WEEK_MS);
    const billing = await billingOf(driver.call);
    expect(billing.subscription.status).toBe('canceled');
    expect(billing.invoices).toHaveLength(1);
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    expect(await standingOf(driver.call)).toBe(false);
    const nothing = await driver.call('POST', '/api/flex/v1/billing/subscription', {
      cancelAtPeriodEnd: false,
    });
    expect(nothing.status).toBe(409);
  });
});

describe('dunning', () => {
  it('a failed renewal alerts the driver, keeps standing while paid time lasts, and a card update pays it', async () => {
    const start = clock;
    const driver = await addDriver(api);
    // A week paid once first: the driver's paid time runs a week past the renewal.
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 1 });
    await subscribe(driver.call);
    expect(await expirationOf(driver.phone)).toBe(start + 2 * WEEK_MS);
    expect((await updateCard(driver.call, CARDS.failsLater)).html).toContain('Card saved.');

    await at(start + WEEK_MS);
    let billing = await billingOf(driver.call);
    expect(billing.subscription).toMatchObject({
      status: 'past_due',
      dunningAttempts: 1,
      nextRetryTimestamp: start + WEEK_MS + DAY,
      lastFailureCode: 'card_declined',
    });
    expect(await expirationOf(driver.phone)).toBe(start + 2 * WEEK_MS);
    expect(await standingOf(driver.call)).toBe(true);
    const texts = await readOutbox(api.gateway.db, { to: driver.phone });
    const alert = texts.find((m) => m.body.includes('failed'));
    expect(alert?.body).toMatch(/\$25.*\/flex\/billing/);
    const overview = (await owner('GET', '/api/flex/v1/admin/billing/overview')).body;
    expect(
      overview.dunning.find((d: { phoneNumber: string }) => d.phoneNumber === driver.phone),
    ).toMatchObject({
      attempts: 1,
      nextRetryTimestamp: start + WEEK_MS + DAY,
    });

    // The retry a day later fails too; no second alert for the same invoice.
    await at(start + WEEK_MS + DAY);
    billing = await billingOf(driver.call);
    expect(billing.subscription).toMatchObject({
      dunningAttempts: 2,
      nextRetryTimestamp: start + WEEK_MS + 3 * DAY,
    });
    const failedTexts = (await readOutbox(api.gateway.db, { to: driver.phone })).filter((m) =>
      m.body.includes('failed'),
    );
    expect(failedTexts).toHaveLength(1);

    // The driver saves a working card: the open invoice is paid at once, for the week it covers.
    clock = start + WEEK_MS + 2 * DAY;
    expect((await updateCard(driver.call, CARDS.succeeds)).status).toBe(200);
    billing = await billingOf(driver.call);
    expect(billing.subscription).toMatchObject({
      status: 'active',
      dunningAttempts: 0,
      nextRetryTimestamp: null,
    });
    expect(await expirationOf(driver.phone)).toBe(start + 3 * WEEK_MS);
    expect(billing.invoices.map((p: { status: string }) => p.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
  });

  it('after the last retry fails the subscription ends, and standing is lost when paid time runs out', async () => {
    const start = clock;
    const driver = await addDriver(api);
    await subscribe(driver.call);
    await updateCard(driver.call, CARDS.failsLater);
    await at(start + WEEK_MS);
    // Paid time ran out at the renewal: standing goes with it, while the retries go on.
    expect(await standingOf(driver.call)).toBe(false);
    for (const day of [1, 3]) {
      await at(start + WEEK_MS + day * DAY);
      expect((await billingOf(driver.call)).subscription.status).toBe('past_due');
    }
    await at(start + WEEK_MS + 5 * DAY);
    const billing = await billingOf(driver.call);
    expect(billing.subscription).toMatchObject({
      status: 'canceled',
      dunningAttempts: 4,
      nextRetryTimestamp: null,
    });
    expect(await expirationOf(driver.phone)).toBe(start + WEEK_MS);
    await at(start + 3 * WEEK_MS);
    expect((await billingOf(driver.call)).invoices).toHaveLength(2);
  });
});

describe('refunds, disputes and the overview', () => {
  it('refunds whole weeks with a reason, takes them back, and refuses more than was paid', async () => {
    const driver = await addDriver(api);
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 4 });
    const paid = (await expirationOf(driver.phone)) ?? 0;
    const payment = (await billingOf(driver.call)).invoices[0];
    const refund = await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 3,
      reason: 'Charged by mistake',
    });
    expect(refund.status).toBe(201);
    expect(refund.body.Item).toMatchObject({
      weeks: 3,
      amountCents: 3 * PRICE,
      phoneNumber: driver.phone,
    });
    expect(await expirationOf(driver.phone)).toBe(paid - 3 * WEEK_MS);
    const again = await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 2,
      reason: 'again',
    });
    expect(again.status).toBe(409);
    const noReason = await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 1,
      reason: '',
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/^reason:/);
    // The receipt says what came back.
    const receipt = await fetch(new URL(payment.receiptUrl, api.url));
    expect(await receipt.text()).toContain('$75.00');
  });

  it('a refund of all the weeks ends the service at once', async () => {
    const driver = await addDriver(api);
    await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 1 });
    const payment = (await billingOf(driver.call)).invoices[0];
    await owner('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment.id,
      weeks: 1,
      reason: 'Customer asked',
    });
    expect(await expirationOf(driver.phone)).toBe(clock);
    expect(await standingOf(driver.call)).toBe(false);
  });

  it('flags a disputed charge, and counts subscriptions and weekly revenue', async () => {
    const before = (await owner('GET', '/api/flex/v1/admin/billing/overview')).body;
    const driver = await addDriver(api);
    await subscribe(driver.call);
    const { checkout } = await checkoutAndPay(api.url, driver.call, { mode: 'payment', weeks: 1 });
    const intent = await api.gateway.db.query<{ payment_intent: string }>(
      'SELECT payment_intent FROM sandbox_checkouts WHERE metadata LIKE $1',
      [`%${checkout.id}%`],
    );
    await api.gateway.payments.sandbox?.dispute(intent[0]?.payment_intent ?? '');
    const after = (await owner('GET', '/api/flex/v1/admin/billing/overview')).body;
    expect(after.activeSubscriptions).toBe(before.activeSubscriptions + 1);
    expect(after.weeklyRevenueCents).toBe(before.weeklyRevenueCents + PRICE);
    expect(after.lastSevenDaysCents).toBe(before.lastSevenDaysCents + 2 * PRICE);
    expect(after.flags[0]).toMatchObject({
      phoneNumber: driver.phone,
      kind: 'dispute',
      reason: 'fraudulent',
      amountCents: PRICE,
    });
    const driverView = await driver.call('GET', '/api/flex/v1/admin/billing/overview');
    expect(driverView.status).toBe(403);
  });
});

describe('referral credit', () => {
  it('a subscriber’s free week pays their next renewal instead of the card, shown on the billing page', async () => {
    const start = clock;
    const inviter = await addDriver(api);
    await subscribe(inviter.call);
    const friendPhone = freshPhone();
    await inviter.call('POST', '/api/flex/v1/invitations', { phoneNumber: friendPhone });
    const friend = await addDriver(api, { phone_number: friendPhone });
    await checkoutAndPay(api.url, friend.call, { mode: 'payment', weeks: 1 });
    // Not time added now: a week of credit waiting for the renewal.
    expect(await expirationOf(inviter.phone)).toBe(start + WEEK_MS);
    let billing = await billingOf(inviter.call);
    expect(billing.creditWeeks).toBe(1);
    expect(billing.credits).toHaveLength(1);

    await at(start + WEEK_MS);
    billing = await billingOf(inviter.call);
    expect(await expirationOf(inviter.phone)).toBe(start + 2 * WEEK_MS);
    expect(billing.creditWeeks).toBe(0);
    expect(billing.invoices[0]).toMatchObject({
      kind: 'renewal',
      amountCents: 0,
      status: 'succeeded',
    });
    // The week after, the card pays again.
    await at(start + 2 * WEEK_MS);
    expect((await billingOf(inviter.call)).invoices[0]).toMatchObject({ amountCents: PRICE });
  });

  it('a driver who pays by the week gets the free week as added time', async () => {
    // Only a driver who has paid may invite: a day left, then one week bought once.
    const inviter = await addDriver(api, { expiration_ts: clock + DAY, good_standing: true });
    await checkoutAndPay(api.url, inviter.call, { mode: 'payment', weeks: 1 });
    expect(await expirationOf(inviter.phone)).toBe(clock + DAY + WEEK_MS);
    const friendPhone = freshPhone();
    const invited = await inviter.call('POST', '/api/flex/v1/invitations', {
      phoneNumber: friendPhone,
    });
    expect(invited.status).toBe(201);
    const friend = await addDriver(api, { phone_number: friendPhone });
    await checkoutAndPay(api.url, friend.call, { mode: 'payment', weeks: 1 });
    expect(await expirationOf(inviter.phone)).toBe(clock + DAY + 2 * WEEK_MS);
    expect((await billingOf(inviter.call)).creditWeeks).toBe(0);
  });
});
