// The driver service on a real gateway on 127.0.0.1: fast catcher timings, the sandbox platform's
// generator and 5xx off, drivers with real id tokens signed in through amazon-cognito-identity-js,
// and a small JSON client for the /api/flex/v1 driver endpoints.
import { everyDay, startOfDay } from '@blockcatch/sdk';
import { CognitoUser, CognitoUserPool, type ICognitoStorage } from 'amazon-cognito-identity-js';
import { eventually } from '../../../tests/support/eventually.js';
import type { GatewayConfigInput } from '../src/config.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { readOutbox } from '../src/storage/outbox.js';
import type { UserRecord } from '../src/storage/user-record.js';
import { insertUsers } from '../src/storage/users.js';
import { signedIn } from './identity-harness.js';

export const FAST: Partial<GatewayConfigInput> = {
  catcher: {
    leaseMs: 1000,
    renewMs: 200,
    pollIntervalMs: 50,
    minPollIntervalMs: 0,
    backoffBaseMs: 50,
    backoffMaxMs: 400,
  },
  sandboxPlatform: {
    offerIntervalMs: 0,
    failureRate: 0,
    maxPollsPerSecond: 0,
    takenAfterMinMs: 10_000,
    takenAfterMaxMs: 10_000,
  },
};

export interface DriverGateway {
  gateway: Gateway;
  url: string;
  close(): Promise<void>;
}

export async function startDriverGateway(
  config: Partial<GatewayConfigInput> = {},
  options: Parameters<typeof buildGateway>[1] = {},
): Promise<DriverGateway> {
  const gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'silent',
      seed: false,
      ...config,
      // Time-based alerts off: what a test sees must not depend on how long it runs.
      alerts: { sweepMs: 0, ...config.alerts },
      catcher: { ...FAST.catcher, ...config.catcher },
      sandboxPlatform: { ...FAST.sandboxPlatform, ...config.sandboxPlatform },
      // Every test driver connects from 127.0.0.1: the per-address limits would stop the suite.
      identityLimits: {
        codesPerIpPerHour: 100_000,
        passwordFailuresPerIpPerHour: 100_000,
        codesPerHour: 100_000,
        ...config.identityLimits,
      },
    },
    options,
  );
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { gateway, url, close: () => gateway.close() };
}

function memoryStorage(): ICognitoStorage {
  const map = new Map<string, string>();
  return {
    setItem: (k, v) => void map.set(k, v),
    getItem: (k) => map.get(k) ?? null,
    removeItem: (k) => void map.delete(k),
    clear: () => map.clear(),
  };
}

export function userPool(running: DriverGateway): CognitoUserPool {
  return new CognitoUserPool({
    UserPoolId: running.gateway.config.userPoolId,
    ClientId: running.gateway.config.clientId,
    endpoint: `${running.url}/`,
    Storage: memoryStorage(),
  });
}

export function cognitoUser(pool: CognitoUserPool, phone: string): CognitoUser {
  return new CognitoUser({ Username: phone, Pool: pool, Storage: memoryStorage() });
}

/** An id token for a driver made through identity, with a users row (paid up unless told). */
export async function addDriver(
  running: DriverGateway,
  phone: string,
  row: Partial<UserRecord> = {},
): Promise<Api> {
  const password = 'Driver-pass-123';
  await running.gateway.identity.ensureAccount({
    phoneNumber: phone,
    password,
    name: 'Test Driver',
  });
  await insertUsers(running.gateway.db, [
    { product: 'flex', phone_number: phone, name: 'Test Driver', good_standing: true, ...row },
  ]);
  const session = await signedIn(cognitoUser(userPool(running), phone), password);
  return api(running.url, session.getIdToken().getJwtToken());
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field.
  body: any;
}

export type Api = ReturnType<typeof api>;

export function api(url: string, token: string) {
  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${url}/api/flex/v1${path}`, {
      method,
      headers: {
        authorization: token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: text ? JSON.parse(text) : null,
    };
  };
  return {
    token,
    get: (path: string) => call('GET', path),
    put: (path: string, body: unknown) => call('PUT', path, body),
    post: (path: string, body?: unknown) => call('POST', path, body ?? {}),
    delete: (path: string) => call('DELETE', path),
  };
}

/** The last platform code texted to this phone. */
export async function lastPlatformCode(running: DriverGateway, phone: string): Promise<string> {
  // Alerts go to the same phone: the newest message that carries a code.
  const messages = await readOutbox(running.gateway.db, { to: phone, limit: 20 });
  const code = messages
    .map((message) => message.body.match(/one-time code is (\d{6})$/)?.[1])
    .find((found) => found !== undefined);
  if (!code) throw new Error(`no platform code was sent to ${phone}`);
  return code;
}

export const EMAIL = 'dana.driver@example.com';
export const PLATFORM_PASSWORD = 'flex-secret-pw-42';

/** Connects the driver's delivery account the way /flex/login and /flex/otp do. */
export async function connect(running: DriverGateway, driver: Api, phone: string): Promise<void> {
  const signIn = await driver.post('/platform/sign-in', {
    email: `${phone.slice(1)}@example.com`,
    password: PLATFORM_PASSWORD,
  });
  if (signIn.status !== 200) throw new Error(`sign-in: ${signIn.text}`);
  const code = await lastPlatformCode(running, phone);
  const verified = await driver.post('/platform/verify', {
    challengeId: signIn.body.challengeId,
    code,
  });
  if (verified.status !== 200) throw new Error(`verify: ${verified.text}`);
}

/** Filters that take any block in DAU1 at any hour, any day, from now on. */
export function openFilters(overrides: Record<string, unknown> = {}) {
  const allDay = [{ start: '00:00', end: '24:00' }];
  return {
    warehouses: ['DAU1'],
    minHourlyPay: 15,
    minBlockPay: 40,
    timeBufferMinutes: 30,
    weeklySchedule: everyDay(allDay),
    timeZone: 'America/Chicago',
    ...overrides,
  };
}

export const HOUR = 3_600_000;
const AUSTIN = 'America/Chicago';

/**
 * A block that `openFilters` accepts: DAU1, 4 hours long, $100, starting in 3 hours, or at 06:00
 * the next Austin day when that block would run past midnight (a block fits its start day's
 * windows only), so the test does not depend on the hour it runs.
 */
export function matchingOffer(overrides: Record<string, unknown> = {}) {
  let start = Math.ceil((Date.now() + 3 * HOUR) / 900_000) * 900_000;
  const day = (ts: number) => new Date(ts).toLocaleDateString('en-CA', { timeZone: AUSTIN });
  if (day(start) !== day(start + 4 * HOUR - 1)) {
    start = startOfDay(day(start + 4 * HOUR), AUSTIN) + 6 * HOUR;
  }
  return {
    serviceAreaId: 'DAU1',
    startTime: start,
    endTime: start + 4 * HOUR,
    pay: 100,
    ...overrides,
  };
}

/**
 * The first quarter hour at least `afterMs` from now at which a block `lengthMs` long starts and
 * ends on the same Austin day (a block fits its start day's windows only).
 */
export function sameDayStart(afterMs: number, lengthMs: number): number {
  const day = (ts: number) => new Date(ts).toLocaleDateString('en-CA', { timeZone: AUSTIN });
  let start = Math.ceil((Date.now() + afterMs) / 900_000) * 900_000;
  while (day(start) !== day(start + lengthMs - 1)) start += 900_000;
  return start;
}

/** Reads until `done` holds for what was read, through the shared `eventually`; answers the read. */
export function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeout = 20_000,
): Promise<T> {
  return eventually(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`condition not met yet: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout },
  );
}

/**
 * A new driver, connected, with open filters and the system on, once the catcher holds them:
 * searching, or with `orThrottled` not searching only because the platform throttles them.
 */
export async function searchingDriver(
  running: DriverGateway,
  phone: string,
  { orThrottled = false } = {},
): Promise<Api> {
  const driver = await addDriver(running, phone);
  await connect(running, driver, phone);
  await driver.put('/settings', openFilters());
  await driver.put('/status', { status: 'start' });
  await waitFor(
    () => driver.get('/dashboard'),
    (r) =>
      r.body.Item.searching === true ||
      (orThrottled && r.body.Item.notSearchingBecause === 'throttled'),
  );
  return driver;
}
