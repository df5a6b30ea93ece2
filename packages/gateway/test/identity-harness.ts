// A user pool on a real Fastify server on 127.0.0.1, driven through amazon-cognito-identity-js,
// with the SMS codes it sends kept in a list instead of going to the message outbox.
import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
} from 'amazon-cognito-identity-js';
import Fastify, { type FastifyInstance } from 'fastify';
import { type GatewayConfig, parseConfig } from '../src/config.js';
import { installErrorHandler } from '../src/http/errors.js';
import { createIdentity } from '../src/identity/index.js';
import type { Identity } from '../src/identity/types.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';

export const USER_POOL_ID = 'us-east-1_TestPool7';
export const CLIENT_ID = 'test-client';
// The gateway's limit (server.ts); not imported, so this suite runs without the rest of the app.
const BODY_LIMIT = 5 * 1024 * 1024;

export interface Harness {
  app: FastifyInstance;
  db: Db;
  identity: Identity;
  url: string;
  sent: { to: string; text: string }[];
  /** Milliseconds added to the pool's clock (codes and tokens expire by it). */
  clock: { offset: number };
  pool(): CognitoUserPool;
  user(pool: CognitoUserPool, phone: string): CognitoUser;
  lastCode(phone: string): string;
  close(): Promise<void>;
}

function memoryStorage(): ICognitoStorage {
  const map = new Map<string, string>();
  return {
    setItem: (k, v) => void map.set(k, v),
    getItem: (k) => map.get(k) ?? null,
    removeItem: (k) => void map.delete(k),
    clear: () => map.clear(),
  };
}

export async function startPool(
  options: {
    db?: Db;
    issuer?: string;
    idTokenTtl?: number;
    clientId?: string;
    /** Every caller is 127.0.0.1 here: unless a test sets them, the per-address limits are lifted. */
    limits?: Partial<GatewayConfig['identityLimits']>;
  } = {},
): Promise<Harness> {
  const db = options.db ?? (await openDatabase({ kind: 'pglite' }));
  await migrate(db);
  const config = parseConfig({
    port: 0,
    logLevel: 'silent',
    seed: false,
    userPoolId: USER_POOL_ID,
    clientId: options.clientId ?? CLIENT_ID,
    ...(options.idTokenTtl ? { idTokenTtl: options.idTokenTtl } : {}),
    identityLimits: {
      codesPerIpPerHour: 100_000,
      passwordFailuresPerIpPerHour: 100_000,
      ...options.limits,
    },
  });
  const sent: { to: string; text: string }[] = [];
  const clock = { offset: 0 };
  const identity = await createIdentity({
    db,
    config,
    sendCode: async (to, text) => void sent.push({ to, text }),
    now: () => Date.now() + clock.offset,
    ...(options.issuer ? { issuer: options.issuer } : {}),
  });
  const app = Fastify({ bodyLimit: BODY_LIMIT });
  installErrorHandler(app);
  identity.registerRoutes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}/`;
  return {
    app,
    db,
    identity,
    url,
    sent,
    clock,
    pool: () =>
      new CognitoUserPool({
        UserPoolId: USER_POOL_ID,
        ClientId: options.clientId ?? CLIENT_ID,
        endpoint: url,
        Storage: memoryStorage(),
      }),
    user: (pool, phone) =>
      new CognitoUser({ Username: phone, Pool: pool, Storage: memoryStorage() }),
    lastCode(phone) {
      const message = sent.filter((m) => m.to === phone).at(-1);
      const code = message?.text.match(/(\d{6})$/)?.[1];
      if (!code) throw new Error(`no code was sent to ${phone}`);
      return code;
    },
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}

/** A Cognito call the way the library makes it, for answers the library would retry or hide. */
export async function cognitoCall(
  url: string,
  operation: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; errorType: string | null; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    errorType: response.headers.get('x-amzn-errortype'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

export function signUp(
  pool: CognitoUserPool,
  phone: string,
  password: string,
  name = 'Dana Driver',
): Promise<{ userSub: string; userConfirmed: boolean }> {
  const attributes = [
    new CognitoUserAttribute({ Name: 'name', Value: name }),
    new CognitoUserAttribute({ Name: 'phone_number', Value: phone }),
  ];
  return new Promise((resolve, reject) =>
    pool.signUp(phone, password, attributes, [], (err, result) =>
      err || !result ? reject(err) : resolve(result),
    ),
  );
}

export function confirm(user: CognitoUser, code: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    user.confirmRegistration(code, false, (err, result) => (err ? reject(err) : resolve(result))),
  );
}

export type SignInOutcome =
  | { kind: 'session'; session: CognitoUserSession }
  | { kind: 'mfa'; parameters: Record<string, string> }
  | { kind: 'newPassword'; attributes: Record<string, string> };

export function signIn(
  user: CognitoUser,
  password: string,
  flow: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' = 'USER_SRP_AUTH',
): Promise<SignInOutcome> {
  user.setAuthenticationFlowType(flow);
  const details = new AuthenticationDetails({ Username: user.getUsername(), Password: password });
  return new Promise((resolve, reject) =>
    user.authenticateUser(details, {
      onSuccess: (session) => resolve({ kind: 'session', session }),
      onFailure: reject,
      mfaRequired: (_name, parameters) => resolve({ kind: 'mfa', parameters }),
      newPasswordRequired: (attributes) => resolve({ kind: 'newPassword', attributes }),
    }),
  );
}

export async function signedIn(
  user: CognitoUser,
  password: string,
  flow: 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' = 'USER_SRP_AUTH',
): Promise<CognitoUserSession> {
  const outcome = await signIn(user, password, flow);
  if (outcome.kind !== 'session') throw new Error(`expected tokens, got ${outcome.kind}`);
  return outcome.session;
}

/** Turns a node-style library call into a promise. */
export function call<T>(run: (cb: (err?: Error, result?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) =>
    run((err, result) => (err ? reject(err) : resolve(result as T))),
  );
}

/** The error a promise rejects with, for asserting its Cognito code and message. */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code?: string; name?: string; message: string };
    return { code: e.code ?? e.name ?? 'Error', message: e.message };
  }
  throw new Error('expected a failure, got success');
}
