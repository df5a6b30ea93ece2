// The user pool on a real PostgreSQL server: two gateway processes on one database share the
// signing key and the sessions, so a sign-in on one is refreshed and signed out on the other.
import type { CognitoUserSession } from 'amazon-cognito-identity-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase, quoteIdent } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import {
  CLIENT_ID,
  call,
  cognitoCall,
  confirm,
  type Harness,
  signedIn,
  signUp,
  startPool,
} from './identity-harness.js';

const schema = uniqueSchema();

let dbA: Db;
let dbB: Db;
let a: Harness;
let b: Harness;

beforeAll(async () => {
  dbA = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema });
  dbB = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema });
  await migrate(dbA);
  // Both processes start at once on a fresh database: only one signing key may be made.
  [a, b] = await Promise.all([startPool({ db: dbA }), startPool({ db: dbB })]);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await dbA?.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  await dbA?.close();
  await dbB?.close();
});

describe('identity on PostgreSQL', () => {
  it('signs up and signs in by SRP on one process, refreshes and verifies on the other', async () => {
    const keys = await dbA.query('SELECT kid FROM identity_signing_keys');
    expect(keys).toHaveLength(1);

    const phone = '+13125559001';
    const poolA = a.pool();
    await signUp(poolA, phone, 'postgres-pass-1', 'Pat Postgres');
    // The code is checked by process B, which did not send it.
    await confirm(b.user(b.pool(), phone), a.lastCode(phone));
    const session = await signedIn(a.user(poolA, phone), 'postgres-pass-1');

    const claims = await b.identity.verifyIdToken(session.getIdToken().getJwtToken());
    expect(claims).toMatchObject({ phone_number: phone, name: 'Pat Postgres' });
    const userB = b.user(b.pool(), phone);
    const renewed = await call<CognitoUserSession>((cb) =>
      userB.refreshSession(session.getRefreshToken(), cb),
    );
    await a.identity.verifyIdToken(renewed.getIdToken().getJwtToken());

    const signOut = await cognitoCall(b.url, 'GlobalSignOut', {
      AccessToken: renewed.getAccessToken().getJwtToken(),
    });
    expect(signOut.status).toBe(200);
    const replay = await cognitoCall(a.url, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: CLIENT_ID,
      AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
    });
    expect(replay.body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Refresh Token has been revoked',
    });
  });

  it('lets one of two concurrent sign-ups with the same phone win', async () => {
    const phone = '+13125559002';
    const results = await Promise.allSettled([
      signUp(a.pool(), phone, 'first-password'),
      signUp(b.pool(), phone, 'second-password'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason.code).toBe('UsernameExistsException');
  });
});
