// The requester's retry decision end to end, over a scripted transport: which verbs a 503 repeats.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from '../errors.js';
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
