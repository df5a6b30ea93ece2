// Walks every route the gateway registered (its own list, so a new route is covered without
// editing this file) with hostile input, signed in as the owner so validation is what answers.
// Every answer must be a 4xx with a stable code, never a 5xx, and the gateway must stay healthy;
// no pattern may read a value longer than its field's bound (a quadratic one would hold the
// process for seconds).
import { request } from 'node:http';
import { ERROR_CODES } from '@blockcatch/sdk';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ZodArray, ZodDefault, ZodObject, ZodOptional, type ZodType } from 'zod';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { OWNER } from './helpers/people.js';
import { spyOnRegexReads } from './helpers/regex-spy.js';

let running: RunningGateway;
beforeAll(async () => {
  // The walk sends several requests to each of the 150-odd routes from one address: the request
  // limit (tested on its own) would answer the later ones 429 before their input is read.
  running = await startGateway({ rateLimit: { perMinute: 1_000_000 } });
}, 120_000);
afterAll(async () => running?.gateway.close());

interface Attempt {
  name: string;
  method: string;
  url: string;
  body?: string;
  contentType?: string;
  /** The field the answer must name, when the input has one to name. */
  field?: string;
  /** A schema-less GET may ignore what it does not read: only "no 5xx" is asserted. */
  lenient?: boolean;
}

const LONG = 'x'.repeat(10_000);
const DEEP = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;

function fill(url: string): string {
  return url.replace(/:phone(Number)?\b/g, '5125550100').replace(/:[A-Za-z]+/g, 'x');
}

function keysOf(schema: unknown): string[] {
  return schema instanceof ZodObject ? Object.keys((schema as ZodObject).shape) : [];
}

/** The fields of `schema` that hold a list of objects, with the objects' schema. */
function objectListsOf(schema: unknown): [string, ZodType][] {
  if (!(schema instanceof ZodObject)) return [];
  return Object.entries((schema as ZodObject).shape).flatMap(([key, field]) => {
    let inner: unknown = field;
    while (inner instanceof ZodOptional || inner instanceof ZodDefault) inner = inner.unwrap();
    return inner instanceof ZodArray && inner.element instanceof ZodObject
      ? [[key, inner.element as ZodType] as [string, ZodType]]
      : [];
  });
}

/** A free-text field (a search box) takes '-1' or 'NaN' as what a person typed, not as an attack. */
function fieldAccepts(schema: unknown, key: string, value: string): boolean {
  const field = schema instanceof ZodObject ? (schema as ZodObject).shape[key] : undefined;
  return field?.safeParse(value).success ?? false;
}

function attemptsFor(route: RouteOptions): Attempt[] {
  const method = [route.method].flat()[0]!;
  if (method === 'HEAD' || method === 'OPTIONS' || route.url.includes('*')) return [];
  const url = fill(route.url);
  const schema = (route.schema ?? {}) as { body?: ZodType; querystring?: ZodType };
  const attempts: Attempt[] = [];
  const json = (name: string, value: unknown, field?: string): Attempt => ({
    name,
    method,
    url,
    body: JSON.stringify(value),
    ...(field === undefined ? {} : { field }),
  });
  if (method !== 'GET' && method !== 'DELETE') {
    attempts.push({ name: 'invalid JSON', method, url, body: '{"a":' });
    attempts.push({
      name: 'a wrong content type',
      method,
      url,
      body: 'a,b',
      contentType: 'text/csv',
    });
    attempts.push({ name: 'nesting 10,000 deep', method, url, body: DEEP });
    attempts.push(json('NUL text', { text: 'a\u0000b' }, 'text'));
    attempts.push({
      name: 'a lone surrogate',
      method,
      url,
      body: '{"text":"\\ud800"}',
      field: 'text',
    });
    attempts.push({
      name: '__proto__',
      method,
      url,
      body: '{"__proto__":{"x":1}}',
      field: '__proto__',
    });
    attempts.push({
      name: '__proto__ spelled with an escape',
      method,
      url,
      body: '{"\\u005f_proto__":{"x":1}}',
      field: '__proto__',
    });
    attempts.push({ name: 'a non-finite number', method, url, body: '{"n":1e999}' });
    if (schema.body) {
      attempts.push(json('an unknown field', { unknownField: 1 }));
      // One level down: a list of objects (a send's numbers) gets the long string in each field.
      for (const [key, inner] of objectListsOf(schema.body)) {
        for (const innerKey of keysOf(inner)) {
          attempts.push(
            json(`${key}.0.${innerKey}: a 10,000-character string`, {
              [key]: [{ [innerKey]: LONG }],
            }),
          );
        }
      }
      for (const key of keysOf(schema.body)) {
        attempts.push(json(`${key} missing`, {}));
        for (const [what, value] of [
          ['a 10,000-character string', LONG],
          ['a wrong type', [[{}]]],
          ['a negative number', -1],
          ['a fractional number', 0.5],
          ['a huge number', 1e308],
        ] as const) {
          attempts.push(json(`${key}: ${what}`, { [key]: value }));
        }
      }
    }
  }
  const query = (name: string, params: Record<string, string>, field?: string): Attempt => ({
    name,
    method,
    url: `${url}?${new URLSearchParams(params)}`,
    lenient: !schema.querystring && method === 'GET',
    ...(field === undefined ? {} : { field }),
  });
  attempts.push({ ...query('NUL in the query', { q: 'a\u0000' }, 'q'), lenient: false });
  for (const key of keysOf(schema.querystring)) {
    for (const [what, value] of [
      ['a 10,000-character string', LONG],
      ['a negative number', '-1'],
      ['a fractional number', '0.5'],
      ['a huge number', '1e400'],
      ['not a number', 'NaN'],
    ] as const) {
      if (fieldAccepts(schema.querystring, key, value)) continue;
      attempts.push(query(`query ${key}: ${what}`, { [key]: value }));
    }
  }
  if (schema.querystring) attempts.push(query('an unknown query field', { unknownField: '1' }));
  return attempts;
}

describe('hostile input on every route', () => {
  it('answers each attempt with a 4xx and a stable code, and stays healthy', async () => {
    const routes = running.gateway.routes;
    expect(routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    let tried = 0;
    // A 10,000-character value is past every field's bound: no pattern may read it.
    const regexReads = spyOnRegexReads([LONG]);
    onTestFinished(() => regexReads.restore());
    for (const route of routes) {
      for (const attempt of attemptsFor(route)) {
        tried++;
        const readsBefore = regexReads.reads.length;
        const headers: Record<string, string> = {
          ...running.as(OWNER),
          'idempotency-key': `hostile-${tried}`,
        };
        if (attempt.body !== undefined) {
          headers['content-type'] = attempt.contentType ?? 'application/json';
        }
        const res = await fetch(running.url + attempt.url, {
          method: attempt.method,
          headers,
          ...(attempt.body === undefined ? {} : { body: attempt.body }),
        });
        const text = await res.text();
        const where = `${attempt.method} ${route.url} with ${attempt.name}`;
        for (const read of regexReads.reads.slice(readsBefore)) {
          failures.push(`${where}: ${read.pattern} read a ${read.length}-character value`);
        }
        if (res.status >= 500) {
          failures.push(`${where}: ${res.status} ${text.slice(0, 200)}`);
          continue;
        }
        if (attempt.lenient) continue;
        if (res.status < 400) {
          failures.push(`${where}: ${res.status}, expected a 4xx`);
          continue;
        }
        const body = JSON.parse(text) as { code?: string; __type?: string; field?: string };
        // Cognito's JSON protocol (POST /) keeps Cognito's own error shape.
        if (body.__type !== undefined) continue;
        if (!(ERROR_CODES as readonly string[]).includes(body.code ?? '')) {
          failures.push(`${where}: code ${JSON.stringify(body.code)} is not a stable code`);
        }
        if (attempt.field !== undefined && res.status === 400 && body.field !== attempt.field) {
          failures.push(`${where}: field ${JSON.stringify(body.field)}, expected ${attempt.field}`);
        }
        if (text.includes(LONG.slice(0, 101))) failures.push(`${where}: echoes the input`);
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    const health = await fetch(`${running.url}/api/status/health`);
    expect(health.status).toBe(200);
  }, 300_000);

  it("refuses a 50,000-character email of '@' at its bound, before the email pattern reads it", async () => {
    const email = '@'.repeat(50_000);
    const regexReads = spyOnRegexReads([email]);
    onTestFinished(() => regexReads.restore());
    const res = await fetch(`${running.url}/api/flex/v1/platform/sign-in`, {
      method: 'POST',
      headers: { ...running.as(OWNER), 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'pa55word' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation', field: 'email' });
    expect(regexReads.reads).toEqual([]);
  });

  it('checks a webhook signed for a Host of 8,000 slashes without a pattern reading the Host', async () => {
    const host = `127.0.0.1${'/'.repeat(8_000)}x`;
    const regexReads = spyOnRegexReads([host.slice(9)]);
    onTestFinished(() => regexReads.restore());
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${running.url}/api/webhooks/twilio/status`,
        {
          method: 'POST',
          headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('MessageSid=SM1&MessageStatus=delivered');
    });
    expect(status).toBe(403);
    expect(regexReads.reads).toEqual([]);
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await fetch(`${running.url}/api/docs`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toContain('/api/flex/v1/admin/sendsms');
    expect(JSON.stringify(doc.paths['/api/flex/v1/admin/sendsms'])).toContain('1600');
  });
});
