// The platform asks a driver to complete a check in its own app (captcha, identity check): the
// catcher stops for them at once, their dashboard says why, one alert goes out, and searching
// resumes only when the driver says "I've done it" and the platform agrees.
import { afterEach, expect, it, vi } from 'vitest';
import { readOutbox } from '../src/storage/outbox.js';
import {
  addDriver,
  connect,
  type DriverGateway,
  matchingOffer,
  openFilters,
  searchingDriver,
  startDriverGateway,
  waitFor,
} from './driver-harness.js';

vi.setConfig({ testTimeout: 90_000 });

let running: DriverGateway | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

const CHECK_ALERT = /asks you to complete a check in its app/;

async function checkAlerts(phone: string): Promise<string[]> {
  const messages = await readOutbox(running!.gateway.db, { to: phone, limit: 50 });
  return messages.map((m) => m.body).filter((body) => CHECK_ALERT.test(body));
}

/** Alert jobs queued for the check: every one queued is delivered, so one job is one text. */
async function checkAlertJobs(phone: string): Promise<number> {
  await running!.gateway.alerts.settle();
  const [row] = await running!.gateway.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM send_jobs j JOIN users u ON u.id = j.created_by
     WHERE u.phone_number = $1 AND j.idempotency_key LIKE 'alert:needs-verification:%'`,
    [phone],
  );
  return row?.n ?? 0;
}

/** Waits for the check's text, then says it was the only one. */
async function oneCheckAlert(phone: string): Promise<string> {
  const [text] = await waitFor(
    () => checkAlerts(phone),
    (texts) => texts.length >= 1,
  );
  expect(await checkAlertJobs(phone)).toBe(1);
  expect(await checkAlerts(phone)).toHaveLength(1);
  return text!;
}

it('stops searching when the platform asks for a check, alerts once, and resumes only once the driver confirms and the platform agrees', async () => {
  running = await startDriverGateway({ catcher: { pollIntervalMs: 50 } });
  const phone = '+15125550901';
  const driver = await searchingDriver(running, phone);
  const { platform, catcher } = running.gateway.driver;
  const admin = await addDriver(running, '+15125550909', { is_admin: true });
  const sandboxSwitch = (name: string, token: string) =>
    fetch(`${running!.url}/api/sandbox/platform/${name}`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ phoneNumber: phone }),
    });
  // Only an admin may flip the sandbox's switch.
  expect((await sandboxSwitch('ask-for-verification', driver.token)).status).toBe(403);
  expect((await sandboxSwitch('ask-for-verification', admin.token)).status).toBe(200);

  const asked = await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.notSearchingBecause === 'needs-verification',
  );
  expect(asked.body.Item).toMatchObject({
    searching: false,
    needsAttention: 'verify',
    proxyInstalled: true,
  });
  // A lease round under way when the check was asked ends before we look.
  await catcher.settle();
  await waitFor(
    async () => catcher.heldDrivers().length,
    (held) => held === 0,
  );
  // Stopped: no poll for this account however long we look, so an offer now is not caught.
  const pollsWhenStopped = [...platform.stats.values()].reduce((n, s) => n + s.polls, 0);
  const missed = await platform.publishOffer(matchingOffer({ takenAfterMs: 60_000 }));
  await catcher.settle();
  expect((await driver.get('/offers?kind=won')).body.Items).toEqual([]);
  expect([...platform.stats.values()].reduce((n, s) => n + s.polls, 0)).toBe(pollsWhenStopped);

  expect(await oneCheckAlert(phone)).toContain('/flex/dashboard');

  // "I've done it" before the check is done: the platform disagrees and nothing resumes.
  const early = await driver.post('/platform/verified');
  expect(early.status).toBe(409);
  expect(early.body.code).toBe('verification_pending');
  expect((await driver.get('/dashboard')).body.Item.notSearchingBecause).toBe('needs-verification');

  // The driver completes the check in the platform's app, then confirms.
  expect((await sandboxSwitch('complete-verification', admin.token)).status).toBe(200);
  const confirmed = await driver.post('/platform/verified');
  expect(confirmed.status).toBe(200);
  expect(confirmed.body).toEqual({ resumed: true });
  await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.searching === true && r.body.Item.needsAttention === null,
  );
  const won = await waitFor(
    () => driver.get('/offers?kind=won'),
    (r) => r.body.Items.length === 1,
  );
  expect(won.body.Items[0].offerId).toBe(missed.offerId);
  expect(await checkAlertJobs(phone)).toBe(1);

  // Nothing left to confirm.
  const again = await driver.post('/platform/verified');
  expect(again.status).toBe(409);
  expect(again.body.code).toBe('no_verification_asked');
});

it('raises the check at the rate set, and a driver never asked has nothing to confirm', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 50 },
    sandboxPlatform: { verificationRate: 1 },
  });
  const phone = '+15125550902';
  const driver = await addDriver(running, phone);
  expect((await driver.post('/platform/verified')).body.code).toBe('not_connected');
  await connect(running, driver, phone);
  expect((await driver.post('/platform/verified')).body.code).toBe('no_verification_asked');
  await driver.put('/settings', openFilters());
  await driver.put('/status', { status: 'start' });
  // Every poll asks: the first one stops the driver.
  const asked = await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.notSearchingBecause === 'needs-verification',
  );
  expect(asked.body.Item.needsAttention).toBe('verify');
  await oneCheckAlert(phone);
});
