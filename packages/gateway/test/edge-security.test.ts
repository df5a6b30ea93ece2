// The edge as an attacker meets it: security headers on every answer, CORS only for configured
// origins, source maps not served, and a request limit that several processes count together.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../src/config.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { startRedisServer } from './helpers/redis-server.js';

const started: Gateway[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const gateway of started) await gateway.close();
  for (const cleanup of cleanups) await cleanup();
});

async function start(config: Partial<GatewayConfigInput> = {}): Promise<string> {
  const gateway = await buildGateway({ port: 0, logLevel: 'silent', seed: false, ...config });
  started.push(gateway);
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const ORIGIN = 'https://app.blockcatch.test';

describe('security headers', () => {
  it('sends a strict Content-Security-Policy, nosniff and a Referrer-Policy', async () => {
    const url = await start();
    const response = await fetch(`${url}/api/status/health`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp.match(/script-src[^;]*/)?.[0]).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends the same security headers on refusals as on answers', async () => {
    const url = await start();
    const names = [
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
    ];
    const health = await fetch(`${url}/api/status/health`);
    for (const [path, status] of [
      ['/api/no-such-route', 404],
      ['/api/flex/v1/user', 401],
    ] as const) {
      const refused = await fetch(`${url}${path}`);
      expect(refused.status).toBe(status);
      for (const name of names) {
        expect(health.headers.get(name), name).not.toBeNull();
        expect(refused.headers.get(name), `${path}: ${name}`).toBe(health.headers.get(name));
      }
    }
  });

  it('adds HSTS when the deployment is reached over HTTPS', async () => {
    const url = await start({ publicUrl: 'https://api.blockcatch.test' });
    const response = await fetch(`${url}/api/status/health`);
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
  });
});

describe('CORS', () => {
  it('lets a configured origin use every method the API has, and no other origin or null', async () => {
    const url = await start({ corsOrigins: [ORIGIN] });
    const preflight = (origin: string, method: string) =>
      fetch(`${url}/api/flex/v1/settings`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization, content-type',
        },
      });
    for (const method of ['PUT', 'DELETE']) {
      const ok = await preflight(ORIGIN, method);
      expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(ok.headers.get('access-control-allow-methods')).toContain(method);
    }
    for (const origin of ['null', 'https://evil.example', `${ORIGIN}.evil.example`]) {
      const refused = await preflight(origin, 'PUT');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});

describe('the built web app', () => {
  it('does not serve source maps', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blockcatch-web-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>BlockCatch</title>');
    await writeFile(
      join(dir, 'assets', 'app.js'),
      'console.log(1)\n//# sourceMappingURL=app.js.map',
    );
    await writeFile(join(dir, 'assets', 'app.js.map'), '{"sources":["secret.ts"]}');
    const url = await start({ webDir: dir });
    expect((await fetch(`${url}/assets/app.js`)).status).toBe(200);
    const map = await fetch(`${url}/assets/app.js.map`);
    expect(map.status).toBe(404);
    expect(await map.text()).not.toContain('secret.ts');
  });
});

describe('the request limit', () => {
  // A public route that touches no database (the status checks are never counted: a balancer's
  // probes must not take a process out).
  const flood = async (url: string, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      statuses.push((await fetch(`${url}/.well-known/jwks.json`)).status);
    }
    return statuses;
  };

  it('answers 429 rate_limited with Retry-After past the limit', async () => {
    const url = await start({ rateLimit: { perMinute: 5 } });
    expect(await flood(url, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await fetch(`${url}/.well-known/jwks.json`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
  });

  // 200 a minute: each process may hold batchOf(200) = 2 unshared requests, so the two together
  // admit at most 200 + 2 × 2 − 1 = 203 (docs/operations.md, "The edge").
  const heldAcrossTwoProcesses = async (shared: Partial<GatewayConfigInput>) => {
    const perMinute = 200;
    const most = 203;
    const first = await start({ ...shared, rateLimit: { perMinute } });
    const second = await start({ ...shared, rateLimit: { perMinute } });
    // Both processes at once, eight requests in flight on each, well past the limit.
    const statuses = (
      await Promise.all(
        [first, second].flatMap((url) => Array.from({ length: 8 }, () => flood(url, 25))),
      )
    ).flat();
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const admitted = statuses.filter((status) => status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(perMinute);
    expect(admitted).toBeLessThanOrEqual(most);
    // Later requests to either process do not get past it either.
    const later = [...(await flood(first, 5)), ...(await flood(second, 5))];
    expect(admitted + later.filter((status) => status === 200).length).toBeLessThanOrEqual(most);
  };

  it('is held by two processes on one PostgreSQL database within the stated overshoot', async () => {
    const databaseSchema = uniqueSchema();
    cleanups.push(async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${databaseSchema}" CASCADE`);
      await client.end();
    });
    await heldAcrossTwoProcesses({ databaseUrl: POSTGRES_URL, databaseSchema });
  });

  it('is held by two processes through Redis within the stated overshoot', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    await heldAcrossTwoProcesses({ redisUrl: redis.url });
  });

  it('leaves the web app files out on PostgreSQL: they cost no query and use up no budget', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blockcatch-web-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>BlockCatch</title>');
    await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
    const schema = uniqueSchema();
    const url = await start({
      databaseUrl: POSTGRES_URL,
      databaseSchema: schema,
      rateLimit: { perMinute: 3 },
      webDir: dir,
    });
    cleanups.push(async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    });
    const files: number[] = [];
    for (const path of ['/', '/assets/app.js', '/admin/users', '/assets/app.js', '/', '/']) {
      const answer = await fetch(`${url}${path}`);
      await answer.arrayBuffer();
      files.push(answer.status);
    }
    expect(files).toEqual([200, 200, 200, 200, 200, 200]);
    // The API's budget is whole: the files counted nothing in the shared table.
    expect(await flood(url, 3)).toEqual([200, 200, 200]);
    expect((await fetch(`${url}/.well-known/jwks.json`)).status).toBe(429);
  });
});
