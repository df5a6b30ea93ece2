// The platform session over time: an expired session is refreshed with its refresh token and the
// driver keeps searching; a platform that asks for a new code leaves the driver connected but
// needing attention until they sign in again; a throttled driver's dashboard says until when.
import { afterEach, expect, it, vi } from 'vitest';
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

// Each test starts a gateway and connects a driver before it begins: slow on a loaded machine.
vi.setConfig({ testTimeout: 90_000 });

let running: DriverGateway | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function sealedSession(gateway: DriverGateway): Promise<string | null> {
  const [row] = await gateway.gateway.db.query<{ session_enc: string | null }>(
    'SELECT session_enc FROM driver_platform_links',
  );
  return row?.session_enc ?? null;
}

it('refreshes an expired platform session and goes on winning blocks without a reconnect', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 50 },
    sandboxPlatform: { sessionTtlMs: 1000 },
  });
  const driver = await searchingDriver(running, '+15125550311');
  const first = await sealedSession(running);
  // Two expiries in a row: each refresh token is traded once for the next session.
  const second = await waitFor(
    () => sealedSession(running!),
    (sealed) => sealed !== null && sealed !== first,
  );
  await waitFor(
    () => sealedSession(running!),
    (sealed) => sealed !== null && sealed !== second,
  );
  const offer = await running.gateway.driver.platform.publishOffer(matchingOffer());
  const won = await waitFor(
    () => driver.get('/offers?kind=won'),
    (r) => r.body.Items.length === 1,
  );
  expect(won.body.Items[0].offerId).toBe(offer.offerId);
  expect((await driver.get('/dashboard')).body.Item).toMatchObject({
    proxyInstalled: true,
    needsAttention: null,
  });
});

it('shows "needs attention" when the platform asks for a new code, until the driver enters one', async () => {
  running = await startDriverGateway({ catcher: { pollIntervalMs: 50 } });
  const phone = '+15125550312';
  const driver = await searchingDriver(running, phone);
  // The sandbox's switch, as an admin flips it; a driver may not.
  const askForCode = (token: string) =>
    fetch(`${running!.url}/api/sandbox/platform/ask-for-code`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ phoneNumber: phone }),
    });
  expect((await askForCode(driver.token)).status).toBe(403);
  const admin = await addDriver(running, '+15125550314', { is_admin: true });
  expect((await askForCode(admin.token)).status).toBe(200);
  const asked = await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.notSearchingBecause === 'needs-code',
  );
  expect(asked.body.Item).toMatchObject({
    searching: false,
    needsAttention: 'enter-code',
    proxyInstalled: true,
  });

  await connect(running, driver, phone);
  const back = await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.searching === true,
  );
  expect(back.body.Item).toMatchObject({ needsAttention: null, notSearchingBecause: null });
});

it('says the platform throttles the driver, and until when', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 20, minPollIntervalMs: 0 },
    sandboxPlatform: { maxPollsPerSecond: 1, retryAfterMs: 60_000 },
  });
  const driver = await addDriver(running, '+15125550313');
  await connect(running, driver, '+15125550313');
  await driver.put('/settings', openFilters());
  await driver.put('/status', { status: 'start' });
  const throttled = await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.notSearchingBecause === 'throttled',
  );
  expect(throttled.body.Item.searching).toBe(false);
  expect(throttled.body.Item.throttledUntil).toBeGreaterThan(Date.now() + 30_000);
});
