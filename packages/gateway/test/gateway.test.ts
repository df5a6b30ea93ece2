// The read API inside the whole gateway: real id tokens from the user pool, the 5 MB body limit and
// malformed JSON on the API's POST routes, and the web app served beside the API.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { currentUserResponseSchema, flexUsersResponseSchema } from '@blockcatch/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, flexUsers, OWNER, staff } from './helpers/people.js';

const errorSchema = z.strictObject({ code: z.string().min(1), message: z.string().min(1) });
const ADMIN_ROUTES = [
  '/api/flex/v1/all-users-table',
  '/api/spark/v1/admin/all-users-table',
  '/api/flex/v1/admin/referrals',
  '/api/flex/v1/admin/invitations',
];

let running: RunningGateway;
let webDir: string;

const bearer = (phone: string) => ({ authorization: running.tokens.get(phone)! });

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await request(`${running.url}${path}`, { headers });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: await response.body.text(),
  };
}

beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'blockcatch-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>BlockCatch</title>');
  await writeFile(join(webDir, 'assets', 'app.js'), 'console.log("app");');
  // What the build's precompression writes beside a file: here a Brotli copy with other bytes, so
  // a test can tell which one was sent.
  await writeFile(join(webDir, 'assets', 'app.js.br'), brotliCompressSync('console.log("br");'));
  running = await startGateway({ webDir });
});

afterAll(async () => {
  await running?.gateway.close();
  if (webDir) await rm(webDir, { recursive: true, force: true });
});

describe('with real id tokens', () => {
  it('answers the signed-in user to the id token of each staff member', async () => {
    for (const member of staff) {
      const res = await get('/api/flex/v1/user', bearer(member.phoneNumber));
      expect(res.status).toBe(200);
      expect(currentUserResponseSchema.parse(JSON.parse(res.text)).phoneNumber).toBe(
        member.phoneNumber,
      );
    }
  });

  it('accepts the token with a Bearer prefix too', async () => {
    const res = await get('/api/flex/v1/all-users-table', {
      authorization: `Bearer ${running.tokens.get(ADMIN)}`,
    });
    expect(res.status).toBe(200);
    expect(flexUsersResponseSchema.parse(JSON.parse(res.text)).Items.length).toBeGreaterThan(
      flexUsers.length,
    );
  });

  it('refuses every admin route to the driver with 403 and to no token with 401', async () => {
    for (const path of ADMIN_ROUTES) {
      const driver = await get(path, bearer(DRIVER));
      expect(driver.status, path).toBe(403);
      errorSchema.parse(JSON.parse(driver.text));
      const anonymous = await get(path);
      expect(anonymous.status, path).toBe(401);
      errorSchema.parse(JSON.parse(anonymous.text));
    }
  });

  it('refuses a token whose claims were altered with 401', async () => {
    const [header, payload, signature] = running.tokens.get(DRIVER)!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, phone_number: OWNER })).toString(
      'base64url',
    );
    const res = await get('/api/flex/v1/admin/referrals', {
      authorization: `${header}.${forged}.${signature}`,
    });
    expect(res.status).toBe(401);
    expect(errorSchema.parse(JSON.parse(res.text)).code).toBe('unauthenticated');
  });

  it('refuses referrals to an admin without billing details and answers the owner', async () => {
    expect((await get('/api/flex/v1/admin/referrals', bearer(ADMIN))).status).toBe(403);
    expect((await get('/api/flex/v1/admin/referrals', bearer(OWNER))).status).toBe(200);
  });
});

describe('bad bodies', () => {
  const post = (body: string | Buffer) =>
    request(`${running.url}/api/flex/v1/admin/sendsms`, {
      method: 'POST',
      headers: { ...bearer(OWNER), 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      body,
    });

  it('refuses a body over 5 MB with 413 and the JSON error shape', async () => {
    const response = await post(Buffer.alloc(5 * 1024 * 1024 + 10, 0x20));
    expect(response.statusCode).toBe(413);
    errorSchema.parse(await response.body.json());
  });

  it('refuses malformed JSON with 400 and the JSON error shape', async () => {
    const response = await post('{"numbers": [');
    expect(response.statusCode).toBe(400);
    errorSchema.parse(await response.body.json());
  });
});

describe('the web app', () => {
  it('serves index.html at / and for client-side routes', async () => {
    for (const path of ['/', '/admin/users', '/flex/invite/+13055550100']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('<title>BlockCatch</title>');
    }
  });

  it('serves built assets as files', async () => {
    const res = await get('/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log("app");');
  });

  it("sends the build's Brotli copy to a browser that takes Brotli, cached for a year", async () => {
    const res = await request(`${running.url}/assets/app.js`, {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await res.body.arrayBuffer());
    expect(brotliDecompressSync(body).toString()).toBe('console.log("br");');
  });

  it('keeps the JSON 404 for unknown API paths and missing files', async () => {
    for (const path of ['/api/flex/v1/nothing', '/assets/missing.js']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(errorSchema.parse(JSON.parse(res.text)).code).toBe('not_found');
    }
  });
});
