// What the SDK's cross-package tests share: the real sandbox gateway on 127.0.0.1:0, an admin
// account, and a loopback proxy in front of the gateway that counts identity calls and injects
// faults (dropped connections, hung requests, 5xx, 429 with Retry-After, rewritten bodies).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildGateway, type Gateway, type GatewayConfigInput } from '@blockcatch/gateway';
import { insertUsers, readOutbox } from '@blockcatch/gateway/testing';
import { type AuthOptions, createAuth, createGatewayClient } from '@blockcatch/sdk';
import { expect } from 'vitest';
import { eventually } from './support/eventually.js';

export interface Sandbox {
  gateway: Gateway;
  url: string;
  close(): Promise<void>;
}

export async function startSandbox(
  config: Partial<GatewayConfigInput> = {},
  options: Parameters<typeof buildGateway>[1] = {},
): Promise<Sandbox> {
  // Quiet hours off: a test must not depend on the hour it runs (one that turns them on sets the
  // messaging clock).
  const gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'silent',
      seed: false,
      quietHours: false,
      // Consent and the weekly cap off: the tests send to made-up numbers, often (tests turn them on).
      marketingConsent: false,
      marketingWeeklyCap: 0,
      // Approvals off: these suites test what a send does once it goes (send-approvals.test.ts
      // tests the wait for a second admin).
      approvalForWhatsapp: false,
      approvalThreshold: 10_000_000,
      // Time-based alerts off: what a test sees must not depend on how long it runs.
      alerts: { sweepMs: 0 },
      ...config,
    },
    options,
  );
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = gateway.app.server.address() as AddressInfo;
  return { gateway, url: `http://127.0.0.1:${port}`, close: () => gateway.close() };
}

export const ADMIN = { phone: '+13055550100', password: 'Admin-pass-1', name: 'Olga Owner' };

/** An owner-admin with billing details, as the Send SMS screen needs. */
export async function createAdmin(gateway: Gateway, person = ADMIN): Promise<void> {
  await insertUsers(gateway.db, [
    { product: 'flex', phone_number: person.phone, name: person.name },
  ]);
  await gateway.db.query(
    `UPDATE users SET is_admin = true, role = 'owner', can_see_billing = true
     WHERE product = 'flex' AND phone_number = $1`,
    [person.phone],
  );
  await gateway.identity.ensureAccount({
    phoneNumber: person.phone,
    password: person.password,
    name: person.name,
  });
}

export function authOptions(gateway: Gateway, endpoint: string): AuthOptions {
  return {
    userPoolId: gateway.config.userPoolId,
    clientId: gateway.config.clientId,
    endpoint: `${endpoint}/`,
    logger: { warn: () => {} },
  };
}

/** A client signed in as the admin, talking straight to the gateway. */
export async function adminClient(sandbox: Sandbox) {
  const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
  const result = await auth.signIn(ADMIN.phone, ADMIN.password);
  if (result.status !== 'signedIn') throw new Error('admin sign-in met a challenge');
  return { auth, client: createGatewayClient({ baseUrl: sandbox.url, auth }) };
}

/** The newest code the gateway texted to `phone`, read as the admin from the sandbox outbox. */
export async function latestCode(
  admin: ReturnType<typeof createGatewayClient>,
  phone: string,
): Promise<string> {
  const [message] = await admin.outbox({ to: phone, limit: 1 });
  const code = message?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}: ${message?.body}`);
  return code;
}

/**
 * The numbers every outbox message with this body went to (sorted, duplicates kept), once at least
 * `expected` of them are there and the send worker has nothing left to send.
 */
export async function deliveredTo(
  sandbox: Sandbox,
  body: string,
  expected: number,
): Promise<string[]> {
  return eventually(async () => {
    const [pending] = await sandbox.gateway.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients WHERE status IN ('queued', 'sending')`,
    );
    expect(pending?.n, 'recipients still to send').toBe(0);
    const messages = await readOutbox(sandbox.gateway.db, { limit: 1000 });
    const to = messages.filter((m) => m.body === body).map((m) => m.to);
    expect(to.length).toBeGreaterThanOrEqual(expected);
    return to.sort();
  });
}

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** How many requests with this method and path came before this one. */
  seen: number;
}

/** What the proxy does with one request. */
export type ProxyAction =
  | { kind: 'forward' }
  /** Close the socket without forwarding: the gateway never sees it. */
  | { kind: 'drop' }
  /** Forward, then close the socket instead of answering: the gateway did the work. */
  | { kind: 'drop-after-forward' }
  /**
   * Hold the request unanswered until the client gives up (its timeout or abort), then forward it:
   * the gateway sees it late, after the client stopped waiting.
   */
  | { kind: 'hang' }
  /** Answer this status without forwarding. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Forward, then answer this status instead of the gateway's answer. */
  | { kind: 'status-after-forward'; status: number }
  | { kind: 'rewrite'; body: (original: string) => string; headers?: Record<string, string> };

export interface FaultProxy {
  url: string;
  /** X-Amz-Target operations seen, with REFRESH_TOKEN_AUTH sign-ins counted apart. */
  targets: string[];
  refreshCalls(): number;
  plan: (request: ProxiedRequest) => ProxyAction;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const seen = new Map<string, number>();
  const proxy: FaultProxy = {
    url: '',
    targets: [],
    refreshCalls: () => proxy.targets.filter((t) => t === 'InitiateAuth:REFRESH_TOKEN_AUTH').length,
    plan: () => ({ kind: 'forward' }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const id = `${req.method} ${path.split('?')[0]}`;
    const count = seen.get(id) ?? 0;
    seen.set(id, count + 1);
    recordTarget(proxy, req.headers['x-amz-target'], body);
    const action = proxy.plan({
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      seen: count,
    });
    try {
      await act(action, req, res, body, target + path);
    } catch {
      res.socket?.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

function recordTarget(proxy: FaultProxy, header: string | string[] | undefined, body: string) {
  if (typeof header !== 'string') return;
  const operation = header.split('.').pop() ?? header;
  let flow = '';
  if (operation === 'InitiateAuth') {
    try {
      flow = `:${(JSON.parse(body) as { AuthFlow?: string }).AuthFlow}`;
    } catch {
      flow = ':?';
    }
  }
  proxy.targets.push(operation + flow);
}

async function act(
  action: ProxyAction,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  url: string,
): Promise<void> {
  switch (action.kind) {
    case 'drop':
      res.socket?.destroy();
      return;
    case 'status':
      res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers });
      res.end(
        action.body ?? JSON.stringify({ code: 'Injected', message: `injected ${action.status}` }),
      );
      return;
    case 'hang':
      if (!res.socket?.destroyed) {
        await new Promise<void>((resolve) => res.once('close', () => resolve()));
      }
      await forward(req, body, url).catch(() => {});
      return;
    default:
      break;
  }
  const upstream = await forward(req, body, url);
  if (action.kind === 'drop-after-forward') {
    res.socket?.destroy();
    return;
  }
  if (action.kind === 'status-after-forward') {
    res.writeHead(action.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'Injected', message: `injected ${action.status}` }));
    return;
  }
  const text = action.kind === 'rewrite' ? action.body(upstream.body) : upstream.body;
  res.writeHead(upstream.status, {
    ...upstream.headers,
    ...(action.kind === 'rewrite' ? action.headers : {}),
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

async function forward(req: IncomingMessage, body: string, url: string) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || ['host', 'connection', 'content-length'].includes(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const response = await fetch(url, {
    method: req.method,
    headers,
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
  });
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)) {
      out[name] = value;
    }
  });
  return { status: response.status, headers: out, body: await response.text() };
}
