// The request pipeline on a small app: auth declared per route (and required), the JSON body's
// bounds, and zod route schemas answering `{ code, message, field }` without echoing input.
import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../src/api/authenticate.js';
import { unauthenticated } from '../src/http/errors.js';
import { installPipeline } from '../src/http/pipeline.js';
import type { UserRecord } from '../src/storage/user-record.js';

const admin = { user: { id: 'u1', is_admin: true, can_see_billing: false } as UserRecord };

async function appWith(register: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installPipeline(app, async (request) => {
    if (request.headers.authorization !== 'admin') throw unauthenticated();
    return admin as Principal;
  });
  register(app);
  await app.ready();
  return app;
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('answer schemas', () => {
  it('refuses to start with an API route that declares no answer, and names it', async () => {
    const bare = Fastify({ logger: false });
    installPipeline(bare, async () => admin as Principal);
    bare.get('/api/flex/v1/undeclared', { config: { auth: 'admin' } }, async () => ({ a: 1 }));
    await expect(bare.ready()).rejects.toThrow(
      /Routes without an answer schema \(schema\.response\): GET \/api\/flex\/v1\/undeclared\./,
    );
    await bare.close();
  });

  it('starts with declared answers, the listed non-JSON answers and pages outside the API', async () => {
    app = await appWith((a) => {
      a.withTypeProvider<ZodTypeProvider>().get(
        '/api/flex/v1/declared',
        {
          config: { auth: 'admin' },
          schema: { response: { 200: z.object({ shown: z.number() }) } },
        },
        // The answer is what the schema declares: a field it does not name is not sent.
        async () => ({ shown: 1, secretHash: 'x' }) as { shown: number },
      );
      a.get('/metrics', { config: { auth: 'public' } }, async () => 'up 1\n');
      a.get('/sandbox/page', { config: { auth: 'public' } }, async () => 'page');
    });
    const declared = await app.inject({
      url: '/api/flex/v1/declared',
      headers: { authorization: 'admin' },
    });
    expect(declared.json()).toEqual({ shown: 1 });
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(200);
  });
});

describe('per-route auth', () => {
  it('refuses to start with a route that declares no auth', async () => {
    const bare = Fastify({ logger: false });
    installPipeline(bare, async () => admin as Principal);
    bare.get('/api/forgotten', async () => ({ open: true }));
    await expect(bare.ready()).rejects.toThrow(/GET \/api\/forgotten/);
    await bare.close();
  });

  it('reads the token once before the handler and sets request.principal', async () => {
    app = await appWith((a) => {
      a.get('/who', { config: { auth: 'admin' } }, async (request) => ({
        id: request.principal.user.id,
      }));
      a.get('/billing', { config: { auth: 'billing' } }, async () => ({ ok: true }));
    });
    const anonymous = await app.inject({ url: '/who' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'unauthenticated' });
    expect((await app.inject({ url: '/who', headers: { authorization: 'admin' } })).json()).toEqual(
      { id: 'u1' },
    );
    const noBilling = await app.inject({ url: '/billing', headers: { authorization: 'admin' } });
    expect(noBilling.statusCode).toBe(403);
    expect(noBilling.json()).toMatchObject({ code: 'forbidden' });
  });
});

describe('route schemas and body bounds', () => {
  const body = z.strictObject({ name: z.string().max(100), tags: z.array(z.string()).max(3) });
  const post = async (payload: string, contentType = 'application/json') =>
    app!.inject({
      method: 'POST',
      url: '/things',
      payload,
      headers: { 'content-type': contentType },
    });

  async function start() {
    app = await appWith((a) =>
      a
        .withTypeProvider<ZodTypeProvider>()
        .post(
          '/things',
          { config: { auth: 'public' }, schema: { body, response: { 200: body } } },
          async (request) => request.body,
        ),
    );
  }

  it('names unknown fields and the field at fault, quoting at most 100 characters of input', async () => {
    await start();
    const unknown = await post(JSON.stringify({ name: 'a', tags: [], ['x'.repeat(5000)]: 1 }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('validation');
    expect(unknown.json().field).toMatch(/^x+$/);
    expect(unknown.body.length).toBeLessThan(400);

    const long = await post(JSON.stringify({ name: 'y'.repeat(10_000), tags: [] }));
    expect(long.json()).toMatchObject({ code: 'validation', field: 'name' });
    expect(long.body).not.toContain('yyyyyyyyyy');

    const missing = await post(JSON.stringify({ name: 'a' }));
    expect(missing.json()).toMatchObject({ code: 'validation', field: 'tags' });
  });

  it.each([
    ['NUL', JSON.stringify({ name: 'a\u0000b', tags: [] }), 'name'],
    ['a lone surrogate', '{"name":"a","tags":["\\ud800"]}', 'tags.0'],
    ['a __proto__ key', '{"name":"a","tags":[],"__proto__":{"admin":true}}', '__proto__'],
  ])('refuses %s with a 400 naming the field', async (_what, payload, field) => {
    await start();
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', field });
  });

  it('refuses nesting 10,000 deep and invalid JSON with a 400, and a wrong content type with 415', async () => {
    await start();
    const deep = await post(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().code).toBe('validation');
    const broken = await post('{"name":');
    expect(broken.json()).toMatchObject({ code: 'validation' });
    const text = await post('name=a', 'text/csv');
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('unsupported_media_type');
  });
});
