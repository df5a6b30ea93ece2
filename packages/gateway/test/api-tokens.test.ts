// Tokens for machines, attacked against the whole gateway: shown once and stored hashed, refused
// once revoked or expired or forged, never able to mint more tokens, acting only as their creator
// is now, and invisible to other admins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, OWNER } from './helpers/people.js';

let running: RunningGateway;
const PATH = '/api/flex/v1/admin/api-tokens';

beforeAll(async () => {
  running = await startGateway();
});

afterAll(async () => {
  await running?.gateway.close();
});

const call = (
  path: string,
  authorization: string,
  init: { method?: string; body?: unknown } = {},
) =>
  fetch(`${running.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

const session = (phone: string) => running.as(phone).authorization;

async function createToken(phone: string, name = 'cron', expiresInDays = 90) {
  const response = await call(PATH, session(phone), {
    method: 'POST',
    body: { name, expiresInDays },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; token: string; expiresAt: number };
}

describe('machine tokens', () => {
  it('is shown once, stored hashed, works as its creator and records its last use', async () => {
    const created = await createToken(ADMIN);
    expect(created.token).toMatch(/^bct_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/);
    const [row] = await running.gateway.db.query<{ secret_hash: string }>(
      'SELECT secret_hash FROM api_tokens WHERE id = $1',
      [created.id],
    );
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(created.token).not.toContain(row!.secret_hash);

    const jobs = await call('/api/flex/v1/admin/send-jobs', created.token);
    expect(jobs.status).toBe(200);
    const listed = await call(PATH, session(ADMIN));
    const text = await listed.text();
    expect(text).not.toContain(created.token.slice(17));
    const mine = (JSON.parse(text) as { Items: { id: string; lastUsedAt: number | null }[] }).Items;
    expect(mine.find((t) => t.id === created.id)?.lastUsedAt).toEqual(expect.any(Number));
  });

  it('cannot create another token with a token', async () => {
    const { token } = await createToken(ADMIN, 'minter');
    const response = await call(PATH, token, {
      method: 'POST',
      body: { name: 'more', expiresInDays: 366 },
    });
    expect(response.status).toBe(403);
  });

  it('refuses a revoked, an expired and a forged token with 401', async () => {
    const revoked = await createToken(ADMIN, 'revoked');
    expect((await call(`${PATH}/${revoked.id}`, session(ADMIN), { method: 'DELETE' })).status).toBe(
      200,
    );
    expect((await call('/api/flex/v1/admin/send-jobs', revoked.token)).status).toBe(401);

    const expired = await createToken(ADMIN, 'expired', 1);
    await running.gateway.db.query('UPDATE api_tokens SET expires_ts = $2 WHERE id = $1', [
      expired.id,
      Date.now() - 1,
    ]);
    const refused = await call('/api/flex/v1/admin/send-jobs', expired.token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toContain('expired');

    const good = await createToken(ADMIN, 'forged');
    const forged = `${good.token.slice(0, 17)}${'A'.repeat(43)}`;
    expect((await call('/api/flex/v1/admin/send-jobs', forged)).status).toBe(401);
    expect((await call('/api/flex/v1/admin/send-jobs', `${good.token}x`)).status).toBe(401);
    expect((await call('/api/flex/v1/admin/send-jobs', `bct_${'x'.repeat(5000)}`)).status).toBe(
      401,
    );
  });

  it('is only for staff, and acts as its creator is now: an admin flag taken away applies at once', async () => {
    const driver = await call(PATH, session(DRIVER), {
      method: 'POST',
      body: { name: 'driver', expiresInDays: 30 },
    });
    expect(driver.status).toBe(403);

    const { token } = await createToken(ADMIN, 'demoted');
    await running.gateway.db.query('UPDATE users SET is_admin = false WHERE phone_number = $1', [
      ADMIN,
    ]);
    try {
      expect((await call('/api/flex/v1/admin/send-jobs', token)).status).toBe(403);
    } finally {
      await running.gateway.db.query('UPDATE users SET is_admin = true WHERE phone_number = $1', [
        ADMIN,
      ]);
    }
  });

  it("keeps an admin from seeing or revoking another admin's tokens; an owner may", async () => {
    const owners = await createToken(OWNER, 'owner-cron');
    const seen = (await (await call(PATH, session(ADMIN))).json()) as { Items: { id: string }[] };
    expect(seen.Items.map((t) => t.id)).not.toContain(owners.id);
    expect((await call(`${PATH}/${owners.id}`, session(ADMIN), { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await call('/api/flex/v1/admin/send-jobs', owners.token)).status).toBe(200);

    const admins = await createToken(ADMIN, 'admin-cron');
    const all = (await (await call(PATH, session(OWNER))).json()) as { Items: { id: string }[] };
    expect(all.Items.map((t) => t.id)).toContain(admins.id);
    expect((await call(`${PATH}/${admins.id}`, session(OWNER), { method: 'DELETE' })).status).toBe(
      200,
    );
  });

  it('refuses a bad name or lifetime, naming the field', async () => {
    const response = await call(PATH, session(ADMIN), {
      method: 'POST',
      body: { name: 'x', expiresInDays: 400 },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation', field: 'expiresInDays' });
  });
});
