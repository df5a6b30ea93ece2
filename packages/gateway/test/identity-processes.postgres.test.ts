// Tokens across gateway processes and phone changes: two real processes on one PostgreSQL database
// share one issuer (BLOCKCATCH_PUBLIC_URL), and the API finds the caller by the token's `sub`.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { insertUsers } from '../src/storage/users.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { startGateway } from './helpers/gateway.js';
import { cognitoCall } from './identity-harness.js';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENT_ID = 'blockcatch-sandbox-client';
const PASSWORD = 'Process-pass-1';

const children: ChildProcess[] = [];
const schema = uniqueSchema();
const moverSchema = uniqueSchema();

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  for (const name of [schema, moverSchema]) {
    await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  }
  await client.end();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

async function startProcess(port: number): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: POSTGRES_URL,
    BLOCKCATCH_DATABASE_SCHEMA: schema,
    BLOCKCATCH_PUBLIC_URL: 'https://api.blockcatch.test',
    BLOCKCATCH_LOG_LEVEL: 'silent',
    BLOCKCATCH_PLATFORM_KEY: '11'.repeat(32),
  };
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', MAIN, '--port', String(port), '--no-seed'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  // The banner's last line says it is up; an exit before it fails at once.
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (out.includes('Sent messages')) resolve();
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${err}`)));
    check();
  });
  return `http://127.0.0.1:${port}`;
}

async function lastCode(phone: string): Promise<string> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT body FROM "${schema}".outbox_messages WHERE to_number = $1 ORDER BY id DESC LIMIT 1`,
      [phone],
    );
    return String(rows[0]?.body).match(/(\d{6})$/)![1]!;
  } finally {
    await client.end();
  }
}

describe('two gateway processes on one database', () => {
  it('accept each other’s tokens: sign in on one, call the API on the other', async () => {
    const [first, second] = await Promise.all([
      startProcess(await freePort()),
      startProcess(await freePort()),
    ]);
    const phone = '+12065550142';
    const signUp = await cognitoCall(`${first}/`, 'SignUp', {
      ClientId: CLIENT_ID,
      Username: phone,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'name', Value: 'Two Process' }],
    });
    expect(signUp.status).toBe(200);
    await cognitoCall(`${first}/`, 'ConfirmSignUp', {
      ClientId: CLIENT_ID,
      Username: phone,
      ConfirmationCode: await lastCode(phone),
    });
    const signIn = await cognitoCall(`${first}/`, 'InitiateAuth', {
      ClientId: CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: phone, PASSWORD },
    });
    const token = (signIn.body.AuthenticationResult as { IdToken: string }).IdToken;
    const user = await fetch(`${second}/api/flex/v1/user`, { headers: { authorization: token } });
    expect(user.status).toBe(200);
    expect(JSON.stringify(await user.json())).toContain('Two Process');
  });
});

describe('the caller behind a token', () => {
  it('is the account of its `sub`: a token issued before a phone change never reaches the number’s next holder', async () => {
    const running = await startGateway({
      databaseUrl: POSTGRES_URL,
      databaseSchema: moverSchema,
    });
    try {
      const { gateway, url } = running;
      const oldPhone = '+12065550150';
      const newPhone = '+12065550151';
      await gateway.identity.ensureAccount({
        phoneNumber: oldPhone,
        password: PASSWORD,
        name: 'Mover',
      });
      await insertUsers(gateway.db, [{ product: 'flex', phone_number: oldPhone, name: 'Mover' }]);
      const call = (operation: string, body: Record<string, unknown>) =>
        cognitoCall(`${url}/`, operation, body);
      const signIn = await call('InitiateAuth', {
        ClientId: gateway.config.clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: oldPhone, PASSWORD },
      });
      const { IdToken: oldToken, AccessToken } = signIn.body.AuthenticationResult as {
        IdToken: string;
        AccessToken: string;
      };
      await call('UpdateUserAttributes', {
        AccessToken,
        UserAttributes: [{ Name: 'phone_number', Value: newPhone }],
      });
      const [message] = await gateway.db.query<{ body: string }>(
        'SELECT body FROM outbox_messages WHERE to_number = $1 ORDER BY id DESC LIMIT 1',
        [newPhone],
      );
      const verified = await call('VerifyUserAttribute', {
        AccessToken,
        AttributeName: 'phone_number',
        Code: message!.body.match(/(\d{6})$/)![1],
      });
      expect(verified.status).toBe(200);
      // The old number now belongs to somebody else, an admin.
      await insertUsers(gateway.db, [
        { product: 'flex', phone_number: oldPhone, name: 'Next Holder', is_admin: true },
      ]);
      const me = await fetch(`${url}/api/flex/v1/user`, { headers: { authorization: oldToken } });
      const body = JSON.stringify(await me.json());
      expect(body).not.toContain('Next Holder');
      expect(body).toContain('Mover');
    } finally {
      await running.gateway.close();
    }
  });
});
