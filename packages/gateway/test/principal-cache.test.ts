// Authenticated reads keep the verified token and its caller for a few seconds: one query per read,
// and still refused at once after a sign-out or when the caller loses a permission.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway, type Gateway } from '../src/server.js';
import { openDatabase } from '../src/storage/db.js';
import { ADMIN, insertPeople, staff } from './helpers/people.js';

let gateway: Gateway;
let url: string;
let queries = 0;

beforeAll(async () => {
  const db = await openDatabase({ kind: 'pglite' });
  const counted = {
    ...db,
    kind: db.kind,
    query: <T>(sql: string, params?: unknown[]) => {
      queries++;
      return db.query<T>(sql, params);
    },
    transaction: db.transaction.bind(db),
    close: db.close.bind(db),
  };
  gateway = await buildGateway({ port: 0, logLevel: 'silent', seed: false }, { db: counted });
  await insertPeople(gateway.db);
  const admin = staff.find((member) => member.phoneNumber === ADMIN)!;
  await gateway.identity.ensureAccount(admin);
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await gateway?.close();
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
  it('cost one query once the token has been verified', async () => {
    const { IdToken } = await signIn();
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    const before = queries;
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    expect(queries - before).toBe(1);
  });

  it('refuse a token at once after its user signs out, though it was just served', async () => {
    const { IdToken, AccessToken } = await signIn();
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    expect(await status('/api/flex/v1/user', IdToken)).toBe(200);
    await cognito('GlobalSignOut', { AccessToken });
    expect(await status('/api/flex/v1/user', IdToken)).toBe(401);
  });

  it('refuse an admin route at once to a caller whose admin flag was taken away', async () => {
    const { IdToken } = await signIn();
    expect(await status('/api/flex/v1/all-users-table', IdToken)).toBe(200);
    await gateway.db.query(`UPDATE users SET is_admin = false WHERE phone_number = $1`, [ADMIN]);
    try {
      expect(await status('/api/flex/v1/all-users-table', IdToken)).toBe(403);
    } finally {
      await gateway.db.query(`UPDATE users SET is_admin = true WHERE phone_number = $1`, [ADMIN]);
    }
  });
});
