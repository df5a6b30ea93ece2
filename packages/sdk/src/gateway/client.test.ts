// The requester's retry decision end to end, over a scripted transport: which verbs a 503 repeats.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ForbiddenError, HttpError, TimeoutError } from '../errors.js';
import { createRequester } from './client.js';
import type { GatewayRequest } from './requester.js';
import type { Transport, TransportRequest } from './transport.js';

/** Answers 503 `failures` times, then 200 `{ ok: true }`; records what was sent. */
function flakyTransport(failures: number) {
  const sent: TransportRequest[] = [];
  const transport: Transport = async (request) => {
    sent.push(request);
    return sent.length <= failures
      ? { status: 503, headers: {}, body: '{"code":"Unavailable","message":"busy"}' }
      : { status: 200, headers: {}, body: '{"ok":true}' };
  };
  return { sent, transport };
}

function send(transport: Transport, request: Omit<GatewayRequest<z.ZodType>, 'schema' | 'path'>) {
  const requester = createRequester({
    baseUrl: 'http://gateway.test',
    transport,
    retry: { baseDelayMs: 1, maxRetries: 3 },
  });
  return requester.request({ ...request, path: '/api/x', schema: z.object({ ok: z.boolean() }) });
}

describe('createRequester retries', () => {
  it.each(['GET', 'PUT', 'DELETE'] as const)('repeats a %s through a 503', async (method) => {
    const { sent, transport } = flakyTransport(2);
    const body = method === 'PUT' ? { status: 'start' } : undefined;
    await expect(send(transport, { method, body })).resolves.toMatchObject({ data: { ok: true } });
    expect(sent.map((r) => r.method)).toEqual([method, method, method]);
    expect(new Set(sent.map((r) => r.body))).toEqual(new Set([body && JSON.stringify(body)]));
  });

  it('does not repeat a POST without an idempotency key', async () => {
    const { sent, transport } = flakyTransport(1);
    const error = await send(transport, { method: 'POST', body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(503);
    expect(sent).toHaveLength(1);
  });

  it('repeats a POST under its idempotency key, sending the same key each time', async () => {
    const { sent, transport } = flakyTransport(1);
    await send(transport, { method: 'POST', body: {}, idempotencyKey: 'pay-1' });
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual(['pay-1', 'pay-1']);
  });
});

describe('createRequester streams', () => {
  const encoder = new TextEncoder();

  async function* chunks(...texts: string[]): AsyncGenerator<Uint8Array> {
    for (const text of texts) yield encoder.encode(text);
  }

  async function readAll(body: AsyncIterable<Uint8Array>): Promise<string[]> {
    const decoder = new TextDecoder();
    const read: string[] = [];
    for await (const chunk of body) read.push(decoder.decode(chunk));
    return read;
  }

  function requester(transport: Transport, timeoutMs = 30_000) {
    return createRequester({
      baseUrl: 'http://gateway.test',
      transport,
      timeoutMs,
      auth: { getIdToken: async () => 'id-token' },
    });
  }

  it('reads an export through the injected transport, with the token and the format asked', async () => {
    const sent: TransportRequest[] = [];
    const transport: Transport = async () => {
      throw new Error('a stream must not read the whole body');
    };
    transport.stream = async (request) => {
      sent.push(request);
      return { status: 200, headers: {}, body: chunks('phone\n', '+15125550100\n') };
    };
    const answer = await requester(transport).stream('/api/admin/v1/users-export', 'text/csv', {
      query: { format: 'csv', q: undefined },
    });
    expect(await readAll(answer.body)).toEqual(['phone\n', '+15125550100\n']);
    expect(sent).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: 'http://gateway.test/api/admin/v1/users-export?format=csv',
        headers: { accept: 'text/csv', authorization: 'id-token' },
      }),
    ]);
  });

  it('reads the whole body as one chunk from a transport that cannot stream', async () => {
    const transport: Transport = async () => ({ status: 200, headers: {}, body: 'a\nb\n' });
    const answer = await requester(transport).stream('/api/x', 'text/csv');
    expect(await readAll(answer.body)).toEqual(['a\nb\n']);
  });

  it('maps a refused export to the error hierarchy, with the gateway’s message', async () => {
    const transport: Transport = async () => ({ status: 500, headers: {}, body: '' });
    transport.stream = async () => ({
      status: 403,
      headers: {},
      body: chunks('{"code":"forbidden",', '"message":"Admins only."}'),
    });
    const error = await requester(transport)
      .stream('/api/x', 'text/csv')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).serverMessage).toBe('Admins only.');
  });

  it('gives up with a TimeoutError when the headers do not come within the timeout', async () => {
    const transport: Transport = async () => ({ status: 200, headers: {}, body: '' });
    transport.stream = (request) =>
      new Promise((_resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const error = await requester(transport, 20)
      .stream('/api/x', 'text/csv')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('GET /api/x timed out after 20 ms');
  });
});
