// The driver service over HTTP on a real gateway: connecting the delivery account with the code
// texted to the driver, filters and setup, system on/off, and the catcher winning blocks.
import {
  driverCalendarSchema,
  driverDashboardResponseSchema,
  latencyResponseSchema,
  offersResponseSchema,
  platformChallengeSchema,
  savedSettingsResponseSchema,
  serviceAreasResponseSchema,
} from '@blockcatch/sdk';
import { CognitoUserAttribute } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { readOutbox } from '../src/storage/outbox.js';
import {
  addDriver,
  api,
  cognitoUser,
  connect,
  type DriverGateway,
  EMAIL,
  lastPlatformCode,
  matchingOffer,
  openFilters,
  PLATFORM_PASSWORD,
  startDriverGateway,
  userPool,
  waitFor,
} from './driver-harness.js';
import { call, confirm, signedIn } from './identity-harness.js';

let running: DriverGateway;

beforeAll(async () => {
  running = await startDriverGateway();
});

afterAll(async () => {
  await running?.close();
});

describe('a driver from sign-up to a won block', () => {
  it('signs up, connects the delivery account with the texted code, sets filters, turns on and wins a matching block', async () => {
    const phone = '+15125550101';
    const pool = userPool(running);
    await call((cb) =>
      pool.signUp(
        phone,
        'Sign-up-pass-1',
        [
          new CognitoUserAttribute({ Name: 'name', Value: 'Dana Driver' }),
          new CognitoUserAttribute({ Name: 'phone_number', Value: phone }),
        ],
        [],
        cb,
      ),
    );
    const [signUpText] = await readOutbox(running.gateway.db, { to: phone, limit: 1 });
    await confirm(cognitoUser(pool, phone), signUpText!.body.match(/(\d{6})/)![1]!);
    const session = await signedIn(cognitoUser(pool, phone), 'Sign-up-pass-1');
    const driver = api(running.url, session.getIdToken().getJwtToken());
    // A paid week (payments are their own part of the service).
    await running.gateway.db.query(
      'UPDATE users SET good_standing = true, expiration_ts = $2 WHERE phone_number = $1',
      [phone, Date.now() + 7 * 86_400_000],
    );

    let user = await driver.get('/user');
    expect(user.body.Item).toMatchObject({ proxyInstalled: false, setupComplete: false });

    const signIn = await driver.post('/platform/sign-in', {
      email: EMAIL,
      password: PLATFORM_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    expect(platformChallengeSchema.parse(signIn.body).sentTo).toBe(phone);
    const code = await lastPlatformCode(running, phone);
    const verified = await driver.post('/platform/verify', {
      challengeId: signIn.body.challengeId,
      code,
    });
    expect(verified.status).toBe(200);
    user = await driver.get('/user');
    expect(user.body.Item.proxyInstalled).toBe(true);

    const areas = await driver.get('/service-areas');
    expect(serviceAreasResponseSchema.parse(areas.body).Items.map((a) => a.id)).toContain('DAU1');
    const saved = await driver.put('/settings', openFilters());
    expect(saved.status).toBe(200);
    expect(savedSettingsResponseSchema.parse(saved.body).setupComplete).toBe(true);
    expect((await driver.get('/user')).body.Item.setupComplete).toBe(true);

    expect((await driver.put('/status', { status: 'start' })).status).toBe(200);
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === true,
    );

    const wanted = await running.gateway.driver.platform.publishOffer(matchingOffer());
    const elsewhere = await running.gateway.driver.platform.publishOffer(
      matchingOffer({ serviceAreaId: 'DFW6' }),
    );
    const won = await waitFor(
      () => driver.get('/offers?kind=won'),
      (r) => r.body.Items.length === 1,
    );
    expect(offersResponseSchema.parse(won.body).Items[0]).toMatchObject({
      offerId: wanted.offerId,
      kind: 'won',
      pay: 100,
    });
    const disliked = await waitFor(
      () => driver.get('/offers?kind=disliked'),
      (r) => r.body.Items.length === 1,
    );
    expect(disliked.body.Items[0]).toMatchObject({
      offerId: elsewhere.offerId,
      reason: 'warehouse',
    });

    const dashboard = await driver.get('/dashboard');
    expect(driverDashboardResponseSchema.parse(dashboard.body).Item).toMatchObject({
      systemOn: true,
      searching: true,
      offers: { won: 1, disliked: 1, gone: 0 },
      expired: false,
    });
    const calendar = await driver.get('/calendar');
    expect(driverCalendarSchema.parse(calendar.body).Items.map((b) => b.offerId)).toEqual([
      wanted.offerId,
    ]);
    const [taken] = await running.gateway.db.query<{ accepted_by: string | null }>(
      'SELECT accepted_by FROM sandbox_offers WHERE id = $1',
      [wanted.offerId],
    );
    expect(taken?.accepted_by).not.toBeNull();
  });
});

describe('connecting the delivery account', () => {
  it('refuses a wrong code, then connects with the right one', async () => {
    const phone = '+15125550102';
    const driver = await addDriver(running, phone);
    const signIn = await driver.post('/platform/sign-in', {
      email: 'x@example.com',
      password: 'pw-1',
    });
    const code = await lastPlatformCode(running, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await driver.post('/platform/verify', {
      challengeId: signIn.body.challengeId,
      code: wrong,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid_code');
    expect((await driver.get('/user')).body.Item.proxyInstalled).toBe(false);
    const ok = await driver.post('/platform/verify', {
      challengeId: signIn.body.challengeId,
      code,
    });
    expect(ok.status).toBe(200);
    expect((await driver.get('/user')).body.Item.proxyInstalled).toBe(true);
    const again = await driver.post('/platform/verify', {
      challengeId: signIn.body.challengeId,
      code,
    });
    expect(again.status).toBe(409);
  });

  it('refuses a wrong password for a known delivery account', async () => {
    const driver = await addDriver(running, '+15125550103');
    await driver.post('/platform/sign-in', { email: 'known@example.com', password: 'right-pw' });
    const wrong = await driver.post('/platform/sign-in', {
      email: 'known@example.com',
      password: 'wrong-pw',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      code: 'platform_sign_in_failed',
      message: 'Incorrect email or password.',
    });
  });

  it('names the bad field when the sign-in body is wrong', async () => {
    const driver = await addDriver(running, '+15125550104');
    const bad = await driver.post('/platform/sign-in', { email: 'not-an-email', password: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation');
    expect(bad.body.message).toContain('email');
    const noCode = await driver.post('/platform/verify', { challengeId: 'abc', code: '12' });
    expect(noCode.status).toBe(400);
  });

  it('disconnects, which sets the account as not connected', async () => {
    const phone = '+15125550105';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    expect((await driver.delete('/platform')).body).toEqual({ proxyInstalled: false });
    expect((await driver.get('/user')).body.Item.proxyInstalled).toBe(false);
  });

  it('never returns the delivery credentials or tokens, and stores them sealed', async () => {
    const phone = '+15125550106';
    const driver = await addDriver(running, phone);
    const email = 'secret.person@example.com';
    const password = 'Very-Secret-Platform-Pw';
    const signIn = await driver.post('/platform/sign-in', { email, password });
    const code = await lastPlatformCode(running, phone);
    const verify = await driver.post('/platform/verify', {
      challengeId: signIn.body.challengeId,
      code,
    });
    await driver.put('/settings', openFilters());
    const bodies = [
      signIn.text,
      verify.text,
      (await driver.get('/platform')).text,
      (await driver.get('/user')).text,
      (await driver.get('/settings')).text,
      (await driver.get('/dashboard')).text,
      (await driver.get('/calendar')).text,
      (await driver.get('/service-areas')).text,
      (await driver.put('/status', { status: 'start' })).text,
      (await driver.post('/arrive')).text,
      ...(await Promise.all(
        ['won', 'disliked', 'gone'].map(async (k) => (await driver.get(`/offers?kind=${k}`)).text),
      )),
    ];
    const [link] = await running.gateway.db.query<{ credentials_enc: string; session_enc: string }>(
      'SELECT l.credentials_enc, l.session_enc FROM driver_platform_links l JOIN users u ON u.id = l.user_id WHERE u.phone_number = $1',
      [phone],
    );
    const tokens = await running.gateway.db.query<{ account_id: string }>(
      'SELECT account_id FROM sandbox_platform_accounts WHERE email = $1',
      [email],
    );
    expect(tokens).toHaveLength(1);
    for (const text of [...bodies, link!.credentials_enc, link!.session_enc]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(email);
      expect(text).not.toContain('accessToken');
    }
    await driver.put('/status', { status: 'stop' });
  });
});

describe('filters and status', () => {
  it('refuses filters without a warehouse with the screen message', async () => {
    const driver = await addDriver(running, '+15125550107');
    const none = await driver.put('/settings', openFilters({ warehouses: [] }));
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('You must add at least one warehouse');
    const unknown = await driver.put('/settings', openFilters({ warehouses: ['NOPE1'] }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('NOPE1');
    const zone = await driver.put('/settings', openFilters({ timeZone: 'Mars/Olympus' }));
    expect(zone.status).toBe(400);
    expect(zone.body.message).toContain('timeZone');
    expect((await driver.get('/user')).body.Item.setupComplete).toBe(false);
  });

  it('keeps setup incomplete while the weekly schedule has no window', async () => {
    const driver = await addDriver(running, '+15125550108');
    const empty = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    const saved = await driver.put('/settings', openFilters({ weeklySchedule: empty }));
    expect(saved.status).toBe(200);
    expect(saved.body.setupComplete).toBe(false);
    expect((await driver.get('/settings')).body.Item.weeklySchedule).toEqual(empty);
    const full = await driver.put('/settings', openFilters());
    expect(full.body.setupComplete).toBe(true);
  });

  it("answers 'I've arrived' only while the system is on", async () => {
    const phone = '+15125550109';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    const off = await driver.post('/arrive');
    expect(off.status).toBe(409);
    expect(off.body.message).toBe("You must turn on the system to use I've arrived");
    await driver.put('/status', { status: 'start' });
    const on = await driver.post('/arrive');
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ arrived: false, offerId: null });
    await driver.put('/status', { status: 'stop' });
    expect((await driver.put('/status', { status: 'pause' })).status).toBe(400);
  });

  it('stops searching when the driver turns the system off', async () => {
    const phone = '+15125550110';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    await driver.put('/settings', openFilters({ warehouses: ['DHO2'] }));
    await driver.put('/status', { status: 'start' });
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === true,
    );
    await driver.put('/status', { status: 'stop' });
    const off = await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === false,
    );
    expect(off.body.Item.systemOn).toBe(false);
    const { catcher, platform } = running.gateway.driver;
    const [me] = await running.gateway.db.query<{ id: string }>(
      'SELECT id FROM users WHERE phone_number = $1',
      [phone],
    );
    await eventually(() => expect(catcher.heldDrivers()).not.toContain(me!.id));
    await catcher.settle();
    const before = (await driver.get('/dashboard')).body.Item.offers;

    // A driver still on at the same warehouse takes the next offer: the catcher saw it.
    const witnessPhone = '+15125550116';
    const witness = await addDriver(running, witnessPhone);
    await connect(running, witness, witnessPhone);
    await witness.put('/settings', openFilters({ warehouses: ['DHO2'] }));
    await witness.put('/status', { status: 'start' });
    await waitFor(
      () => witness.get('/dashboard'),
      (r) => r.body.Item.searching === true,
    );
    const offer = await platform.publishOffer(matchingOffer({ serviceAreaId: 'DHO2' }));
    await waitFor(
      () => witness.get('/offers?kind=won'),
      (r) => r.body.Items.some((o: { offerId: string }) => o.offerId === offer.offerId),
    );
    await catcher.settle();
    expect((await driver.get('/dashboard')).body.Item.offers).toEqual(before);
    await witness.put('/status', { status: 'stop' });
  });

  it('stops searching for a driver who disconnects the delivery account', async () => {
    const phone = '+15125550115';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    await driver.put('/settings', openFilters({ warehouses: ['DNY4'] }));
    await driver.put('/status', { status: 'start' });
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === true,
    );
    await driver.delete('/platform');
    const after = await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === false,
    );
    expect(after.body.Item).toMatchObject({ systemOn: true, notSearchingBecause: 'not-connected' });
    await driver.put('/status', { status: 'stop' });
  });

  it('gives a contested block to one driver and records it as gone for the other', async () => {
    const drivers = [];
    for (const phone of ['+15125550111', '+15125550112']) {
      const driver = await addDriver(running, phone);
      await connect(running, driver, phone);
      await driver.put('/settings', openFilters({ warehouses: ['DMI3'] }));
      await driver.put('/status', { status: 'start' });
      drivers.push(driver);
    }
    for (const driver of drivers) {
      await waitFor(
        () => driver.get('/dashboard'),
        (r) => r.body.Item.searching === true,
      );
    }
    // The contest: each driver's accept is held until both drivers saw the block and asked for it,
    // however the two polls fall; without it a loaded machine lets one driver take the block
    // before the other's poll lists it at all.
    const platform = running.gateway.driver.platform;
    const accept = platform.acceptOffer;
    let asked = 0;
    let bothAsked = () => {};
    const contest = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    platform.acceptOffer = async (session, offerId) => {
      if (++asked === 2) bothAsked();
      await contest;
      return accept.call(platform, session, offerId);
    };
    onTestFinished(() => {
      platform.acceptOffer = accept;
    });
    await platform.publishOffer(matchingOffer({ serviceAreaId: 'DMI3' }));
    const counts = await Promise.all(
      drivers.map((d) =>
        waitFor(
          () => d.get('/dashboard'),
          (r) => r.body.Item.offers.won + r.body.Item.offers.gone === 1,
        ).then((r) => r.body.Item.offers),
      ),
    );
    expect(counts.map((c) => c.won).sort()).toEqual([0, 1]);
    expect(counts.map((c) => c.gone).sort()).toEqual([0, 1]);
    // Each keeps the offer's timeline, in order, and the day's median; an admin reads it per driver.
    const admin = await addDriver(running, '+15125550118', { is_admin: true });
    for (const [i, driver] of drivers.entries()) {
      const { Item } = latencyResponseSchema.parse((await driver.get('/latency')).body);
      expect(Item.accepts).toBe(1);
      const [t] = Item.Items;
      const steps = [t!.publishedAt, t!.seenAt, t!.decidedAt, t!.acceptSentAt, t!.answeredAt];
      expect(steps.every((step) => step !== null)).toBe(true);
      expect([...steps].sort((a, b) => a! - b!)).toEqual(steps);
      expect(Item.medianSeenToAcceptMs).toBe(t!.acceptSentAt! - t!.seenAt);
      const phone = ['+15125550111', '+15125550112'][i]!;
      const read = await admin.get(`/admin/users/${encodeURIComponent(phone)}/latency`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.Item.Items).toEqual(Item.Items);
      expect((await driver.get(`/admin/users/${encodeURIComponent(phone)}/latency`)).status).toBe(
        403,
      );
    }
    for (const driver of drivers) await driver.put('/status', { status: 'stop' });
  });

  it('lets an admin read a driver dashboard, and no one else', async () => {
    const phone = '+15125550113';
    const driver = await addDriver(running, phone);
    const admin = await addDriver(running, '+15125550114', { is_admin: true });
    expect((await driver.get(`/admin/users/${encodeURIComponent(phone)}/dashboard`)).status).toBe(
      403,
    );
    const read = await admin.get(`/admin/users/${encodeURIComponent(phone)}/dashboard`);
    expect(read.status).toBe(200);
    expect(read.body.Item).toMatchObject({ systemOn: false, searching: false });
    expect((await admin.get('/admin/users/5125550199/dashboard')).status).toBe(404);
    expect((await admin.get('/admin/users/abc/dashboard')).status).toBe(400);
  });
});

it('rejects requests without a session', async () => {
  const anonymous = api(running.url, '');
  expect((await anonymous.get('/dashboard')).status).toBe(401);
  expect((await anonymous.put('/status', { status: 'start' })).status).toBe(401);
});
