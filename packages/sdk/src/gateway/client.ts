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
import type {
  Call,
  CallOptions,
  CallWithBody,
  GatewayRequest,
  GatewayResponse,
  Requester,
  StreamedAnswer,
  TokenSource,
} from './requester.js';
import { adminDriversResource } from './resources/admin-drivers.js';
import { driverAlertsResource } from './resources/alerts.js';
import { apiTokensResource } from './resources/api-tokens.js';
import { approvalsResource } from './resources/approvals.js';
import { auditResource } from './resources/audit.js';
import { billingResource } from './resources/billing.js';
import { calendarFeedResource } from './resources/calendar-feed.js';
import { currentUserResource } from './resources/current-user.js';
import { driverReferralsResource } from './resources/driver-referrals.js';
import { driverStatusResource } from './resources/driver-status.js';
import { flexResource } from './resources/flex.js';
import { invitationsResource } from './resources/invitations.js';
import { driverMarketingConsentResource } from './resources/marketing-consent.js';
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
import {
  createFetchTransport,
  type StreamedResponse,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

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

const DEFAULT_TIMEOUT_MS = 30_000;

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
    ...usersExportResource(requester),
    /** Send jobs once queued: list, report, cancel, and the review's preview. */
    sends: sendsResource(requester),
    /** Sends waiting for a second admin: list, approve, reject, the threshold. */
    approvals: approvalsResource(requester),
    /** The staff audit trail (owners): list and export. */
    audit: auditResource(requester),
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
      ...driverMarketingConsentResource(requester),
      ...calendarFeedResource(requester),
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

  async function stream(
    path: string,
    accept: string,
    { query, ...requestOptions }: CallOptions = {},
  ): Promise<StreamedAnswer> {
    const endpoint = `GET ${path}`;
    const headers: Record<string, string> = { accept };
    const token = options.auth ? await options.auth.getIdToken() : null;
    if (token) headers.authorization = token;
    const send = transport.stream ?? wholeBodyAsStream(transport);
    const response = await sendOnce(send, {
      method: 'GET',
      url: baseUrl + path + queryString(query),
      headers,
      body: undefined,
      signal: requestOptions.signal,
      timeoutMs: requestOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      endpoint,
      streamed: true,
    });
    if (response.status >= 200 && response.status < 300) {
      return { body: response.body, headers: response.headers };
    }
    const text = await readText(response.body);
    throw HttpError.fromResponse(response.status, parseJsonOrUndefined(text), response.headers);
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
    stream,
    get: without('GET'),
    delete: without('DELETE'),
    post: withBody('POST'),
    put: withBody('PUT'),
  };
}

async function sendOnce<T>(
  send: (request: TransportRequest) => Promise<T>,
  input: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
    signal: AbortSignal | undefined;
    timeoutMs: number;
    endpoint: string;
    /** A streamed body is read after this returns: the caller's signal must still end it. */
    streamed?: boolean;
  },
): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, input.timeoutMs);
  const forwardAbort = () => controller.abort(input.signal?.reason);
  input.signal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    return await send({
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
    if (!input.streamed) input.signal?.removeEventListener('abort', forwardAbort);
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

/** A transport without `stream`: the whole body, answered as one chunk. */
function wholeBodyAsStream(transport: Transport) {
  return async (request: TransportRequest): Promise<StreamedResponse> => {
    const response = await transport(request);
    return { ...response, body: once(new TextEncoder().encode(response.body)) };
  };
}

async function* once(chunk: Uint8Array): AsyncGenerator<Uint8Array> {
  yield chunk;
}

async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
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
