// The gateway client: one configured object, resources hanging off it. Everything about the wire
// (auth header, retries, timeouts, decryption, parsing, errors) lives here once; resources only
// name a path and a schema.

import type { z } from 'zod';
import { withoutTrailingSlashes } from '../core/urls.js';
import { decryptResponse, parseResponseKey } from '../crypto/response-cipher.js';
import {
  AbortedError,
  type BlockCatchError,
  ConfigError,
  HttpError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
} from '../errors.js';
import {
  type HttpMethod,
  isRepeatable,
  isRetryableStatus,
  nextRetryDelay,
  parseRetryAfter,
  type RetryPolicy,
  resolveRetryPolicy,
} from '../internal/retry.js';
import { adminDriversResource } from './resources/admin-drivers.js';
import { driverAlertsResource } from './resources/alerts.js';
import { apiTokensResource } from './resources/api-tokens.js';
import { billingResource } from './resources/billing.js';
import { currentUserResource } from './resources/current-user.js';
import { driverReferralsResource } from './resources/driver-referrals.js';
import { driverStatusResource } from './resources/driver-status.js';
import { flexResource } from './resources/flex.js';
import { invitationsResource } from './resources/invitations.js';
import { messagesResource } from './resources/messages.js';
import { driverOffersResource } from './resources/offers.js';
import { outboxResource } from './resources/outbox.js';
import { paymentsResource } from './resources/payments.js';
import { platformResource } from './resources/platform.js';
import { referralsResource } from './resources/referrals.js';
import { sendsResource } from './resources/sends.js';
import { driverSettingsResource } from './resources/settings.js';
import { sparkResource } from './resources/spark.js';
import { statusResource } from './resources/status.js';
import { adminSupportResource, driverSupportResource } from './resources/support.js';
import { templatesResource } from './resources/templates.js';
import { usersExportResource } from './resources/users-export.js';
import { createFetchTransport, type Transport, type TransportResponse } from './transport.js';

/** Where the client gets the id token; `createAuth()` is one. Null means no session. */
export interface TokenSource {
  getIdToken(): Promise<string | null>;
}

export interface GatewayClientOptions {
  /** e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  auth?: TokenSource;
  /** Defaults to `fetch`; in Node, `createUndiciTransport()` from `@blockcatch/sdk/node`. */
  transport?: Transport;
  /** The gateway's response key (hex or base64 text, or raw bytes), for encrypted tables. */
  responseKey?: string | Uint8Array;
  /** Retry settings, or `false` for none. */
  retry?: Partial<RetryPolicy> | false;
  /** Per-attempt timeout; default 30 s. */
  timeoutMs?: number;
  /** Tests fix the jitter with this; defaults to Math.random. */
  random?: () => number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface GatewayRequest<S extends z.ZodType> {
  /** Only repeatable requests are retried: see `isRepeatable` in retry.ts. */
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: S;
  /** Makes a POST safe to repeat: the gateway answers a repeated key with the first result. */
  idempotencyKey?: string;
  options?: RequestOptions;
}

export interface GatewayResponse<T> {
  data: T;
  status: number;
  headers: Record<string, string>;
}

/** What one resource method passes along: the caller's options, plus its query or key. */
export interface CallOptions extends RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** Makes a POST safe to repeat: the gateway answers a repeated key with the first result. */
  idempotencyKey?: string;
}

/** A call that names only its path and the answer's schema, and gets the parsed answer. */
type Call = <S extends z.ZodType>(
  path: string,
  schema: S,
  options?: CallOptions,
) => Promise<z.output<S>>;
/** The same with a JSON body. */
type CallWithBody = <S extends z.ZodType>(
  path: string,
  schema: S,
  body?: unknown,
  options?: CallOptions,
) => Promise<z.output<S>>;

export interface Requester {
  /** The whole exchange, for the rare method that reads the status or headers too. */
  request<S extends z.ZodType>(request: GatewayRequest<S>): Promise<GatewayResponse<z.output<S>>>;
  get: Call;
  delete: Call;
  post: CallWithBody;
  put: CallWithBody;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export function createGatewayClient(options: GatewayClientOptions) {
  const requester = createRequester(options);
  return {
    request: requester.request,
    ...statusResource(requester),
    ...currentUserResource(requester),
    flex: flexResource(requester),
    spark: sparkResource(requester),
    ...referralsResource(requester),
    ...templatesResource(requester),
    ...invitationsResource(requester),
    ...messagesResource(requester),
    ...outboxResource(requester),
    ...usersExportResource(options),
    /** Send jobs once queued: list, report, cancel, and the review's preview. */
    sends: sendsResource(requester),
    /** Tokens for machines: create (shown once), list, revoke. */
    apiTokens: apiTokensResource(requester),
    /** The delivery-platform account the catcher drives. */
    platform: platformResource(requester),
    /** The signed-in driver's own endpoints. */
    driver: {
      ...driverSettingsResource(requester),
      ...driverStatusResource(requester),
      ...driverOffersResource(requester),
      ...driverReferralsResource(requester),
      ...driverAlertsResource(requester),
      ...driverSupportResource(requester),
    },
    payments: paymentsResource(requester),
    /** Admin reads about drivers and money (the admin tables and sends are above, at the top). */
    admin: {
      ...billingResource(requester),
      ...adminDriversResource(requester),
      ...adminSupportResource(requester),
    },
  };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;

export function createRequester(options: GatewayClientOptions): Requester {
  if (!/^https?:\/\//.test(options.baseUrl)) {
    throw new ConfigError(
      `baseUrl must be an http(s) URL, e.g. http://127.0.0.1:8787; got "${options.baseUrl}".`,
    );
  }
  const baseUrl = withoutTrailingSlashes(options.baseUrl);
  const transport = options.transport ?? createFetchTransport();
  const policy = resolveRetryPolicy(options.retry);
  const random = options.random ?? Math.random;
  const responseKey =
    typeof options.responseKey === 'string'
      ? parseResponseKey(options.responseKey)
      : options.responseKey;

  async function request<S extends z.ZodType>(
    req: GatewayRequest<S>,
  ): Promise<GatewayResponse<z.output<S>>> {
    const endpoint = `${req.method} ${req.path}`;
    const url = baseUrl + req.path + queryString(req.query);
    const signal = req.options?.signal;
    const timeoutMs = req.options?.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const repeatable = isRepeatable(req.method, req.idempotencyKey);
    const started = Date.now();

    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new AbortedError({ cause: signal.reason });
      const headers: Record<string, string> = { accept: 'application/json' };
      const token = options.auth ? await options.auth.getIdToken() : null;
      if (token) headers.authorization = token;
      if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      if (body !== undefined) headers['content-type'] = 'application/json';

      let failure: BlockCatchError;
      let retryAfterMs: number | undefined;
      try {
        const response = await sendOnce(transport, {
          method: req.method,
          url,
          headers,
          body,
          signal,
          timeoutMs,
          endpoint,
        });
        if (response.status >= 200 && response.status < 300) {
          const data = await decode(response, req.schema, endpoint, responseKey);
          return { data, status: response.status, headers: response.headers };
        }
        const error = HttpError.fromResponse(
          response.status,
          parseJsonOrUndefined(response.body),
          response.headers,
        );
        if (!isRetryableStatus(response.status)) throw error;
        failure = error;
        retryAfterMs = parseRetryAfter(response.headers['retry-after'], Date.now());
      } catch (error) {
        if (!(error instanceof NetworkError || error instanceof TimeoutError)) throw error;
        failure = error;
      }

      if (!repeatable) throw failure;
      const delay = nextRetryDelay({
        attempt,
        policy,
        elapsedMs: Date.now() - started,
        retryAfterMs,
        random: random(),
      });
      if (delay === null) throw failure;
      await sleep(delay, signal);
    }
  }

  const withBody =
    (method: HttpMethod): CallWithBody =>
    async (path, schema, body, { query, idempotencyKey, ...requestOptions } = {}) =>
      (
        await request({
          method,
          path,
          query,
          body,
          schema,
          idempotencyKey,
          options: requestOptions,
        })
      ).data;
  const without =
    (method: HttpMethod): Call =>
    (path, schema, options) =>
      withBody(method)(path, schema, undefined, options);

  return {
    request,
    get: without('GET'),
    delete: without('DELETE'),
    post: withBody('POST'),
    put: withBody('PUT'),
  };
}

async function sendOnce(
  transport: Transport,
  input: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
    signal: AbortSignal | undefined;
    timeoutMs: number;
    endpoint: string;
  },
): Promise<TransportResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, input.timeoutMs);
  const forwardAbort = () => controller.abort(input.signal?.reason);
  input.signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    return await transport({
      method: input.method,
      url: input.url,
      headers: input.headers,
      ...(input.body === undefined ? {} : { body: input.body }),
      signal: controller.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw new AbortedError({ cause: error });
    if (timedOut) throw new TimeoutError(input.timeoutMs, input.endpoint);
    const reason = error instanceof Error ? describeCause(error) : String(error);
    throw new NetworkError(`Network error: ${input.endpoint} got no answer (${reason})`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', forwardAbort);
  }
}

/** fetch hides the socket error in `cause` ('fetch failed' ← ECONNRESET); show the useful one. */
function describeCause(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

async function decode<S extends z.ZodType>(
  response: TransportResponse,
  schema: S,
  endpoint: string,
  responseKey: Uint8Array | undefined,
): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = response.body === '' ? {} : JSON.parse(response.body);
  } catch {
    throw new ResponseShapeError(endpoint, [{ path: '(body)', message: 'the answer is not JSON' }]);
  }
  if (isEncrypted(json)) {
    if (!responseKey) {
      throw new ConfigError(
        `${endpoint} answered encrypted: pass the gateway's response key (BLOCKCATCH_RESPONSE_KEY) as responseKey to createGatewayClient.`,
      );
    }
    let text: string;
    try {
      text = await decryptResponse(json.encrypted, responseKey);
    } catch (error) {
      throw new ConfigError(
        `Could not decrypt the answer of ${endpoint}: is responseKey the gateway's key?`,
        { cause: error },
      );
    }
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseShapeError(endpoint, [
        { path: '(body)', message: 'the decrypted answer is not JSON' },
      ]);
    }
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw ResponseShapeError.fromZod(endpoint, parsed.error);
  return parsed.data;
}

function isEncrypted(json: unknown): json is { encrypted: string } {
  return (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as { encrypted?: unknown }).encrypted === 'string'
  );
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function queryString(query: GatewayRequest<z.ZodType>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError({ cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
