// Authenticated reads keep the verified token and its caller for a few seconds and read the
// versions that end the reuse once per interval: no query per read, and still refused at once
// after a sign-out through the same process. (Another process's changes: multi-process.test.ts.)
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../src/server.js';
import { openDatabase } from '../src/storage/db.js';
import { countingDb } from './helpers/counting-db.js';
import { ADMIN, insertPeople, staff } from './helpers/people.js';

let gateway: Gateway;
let url: string;
// The reads asked through the gateway's database, their SQL in order.
let counted: ReturnType<typeof countingDb>;

beforeAll(async () => {
  counted = countingDb(await openDatabase({ kind: 'pglite' }));
  // A minute between version reads, so that what a read costs does not depend on the clock.
  gateway = await buildGateway(
    { port: 0, logLevel: 'silent', seed: false, principalVersionCheckMs: 60_000 },
    { db: counted.db },
  );
  await insertPeople(gateway.db);
  const admin = staff.find((member) => member.phoneNumber === ADMIN)!;
  await gateway.identity.ensureAccount(admin);
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  // The workers poll on their own clocks; stopped, every query counted is a request's.
  await gateway.stopWorkers();
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await gateway?.close();
  // A database handed in is the caller's to close.
  await counted?.db.close();
});

async function cognito(target: string, body: unknown) {
  const response = await request(`${url}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${target}`,
    },
    body: JSON.stringify(body),
  });
  return (await response.body.json()) as {
    AuthenticationResult?: { IdToken: string; AccessToken: string };
  };
}

async function signIn() {
  const admin = staff.find((member) => member.phoneNumber === ADMIN)!;
  const answer = await cognito('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: gateway.config.clientId,
    AuthParameters: { USERNAME: admin.phoneNumber, PASSWORD: admin.password },
  });
  return answer.AuthenticationResult!;
}

async function status(path: string, token: string): Promise<number> {
  const response = await request(`${url}${path}`, { headers: { authorization: token } });
  await response.body.dump();
  return response.statusCode;
}

describe('authenticated reads', () => {
  it('cost no query once the token has been verified', async () => {
    const { IdToken } = await signIn();
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    const before = counted.counts.readSql.length;
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    expect(counted.counts.readSql.slice(before)).toEqual([]);
  });

  it('refuse a token at once after its user signs out, though it was just served', async () => {
    const { IdToken, AccessToken } = await signIn();
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    await cognito('GlobalSignOut', { AccessToken });
    expect(await status('/api/flex/v1/user', IdToken)).toBe(401);
  });
});
