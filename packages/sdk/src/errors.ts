// The SDK's one error hierarchy. Callers branch on `instanceof` or `code`, never on message text;
// `HttpError.fromResponse` is the only place that maps an HTTP status to an error class.
import type { ZodError } from 'zod';
import type { GatewayErrorCode } from './core/error-codes.js';

/** The SDK's own codes, for failures that never got a gateway answer or one it could read. */
const CLIENT_ERROR_CODES = [
  'http_error',
  'network_error',
  'timeout',
  'aborted',
  'auth_error',
  'response_shape',
  'response_cipher',
  'config',
] as const;

/**
 * An error's `code`: one of the gateway's (`ERROR_CODES`, the failure kinds every route shares
 * map to classes below; domain codes such as `system_off` stay on `HttpError.serverCode`) or one of
 * the SDK's own.
 */
export type ErrorCode = GatewayErrorCode | (typeof CLIENT_ERROR_CODES)[number];

/** @public */
export class BlockCatchError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** The gateway's error body, `{ code, message, field? }`, when it sent one. */
interface ServerErrorBody {
  code?: string;
  message?: string;
  field?: string;
}

function readServerBody(body: unknown): ServerErrorBody {
  if (!body || typeof body !== 'object') return {};
  const { code, message, field } = body as Record<string, unknown>;
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' && message.length > 0 ? message : undefined,
    field: typeof field === 'string' ? field : undefined,
  };
}

/**
 * A gateway answer outside 200–299: 'Request failed with status code N'.
 * @public
 */
export class HttpError extends BlockCatchError {
  readonly status: number;
  /** The `code` of the gateway's body, e.g. 'validation' or 'system_off': branch on this. */
  readonly serverCode: string | undefined;
  /** The input the gateway refused, as a path (`numbers.3.number`, `limit`), when it named one. */
  readonly field: string | undefined;
  /** The `message` of the gateway's body, for people: show it, never compare it. */
  readonly serverMessage: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    body: unknown,
    headers: Readonly<Record<string, string>> = {},
    options: { code?: ErrorCode; message?: string } = {},
  ) {
    super(
      options.code ?? 'http_error',
      options.message ?? `Request failed with status code ${status}`,
    );
    const server = readServerBody(body);
    this.status = status;
    this.serverCode = server.code;
    this.field = server.field;
    this.serverMessage = server.message;
    this.headers = headers;
  }

  /** The one place that decides which class an answer becomes: by its `code`, else its status. */
  static fromResponse(
    status: number,
    body: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): HttpError {
    switch (readServerBody(body).code) {
      case 'validation':
        return new ValidationError(status, body, headers);
      case 'unauthenticated':
        return new UnauthenticatedError(status, body, headers);
      case 'forbidden':
        return new ForbiddenError(status, body, headers);
      case 'not_found':
        return new NotFoundError(status, body, headers);
      case 'conflict':
        return new ConflictError(status, body, headers);
      case 'rate_limited':
        return new RateLimitError(status, body, headers);
      case 'unavailable':
        return new UnavailableError(status, body, headers);
    }
    if (status === 400) return new ValidationError(status, body, headers);
    if (status === 401) return new UnauthenticatedError(status, body, headers);
    if (status === 403) return new ForbiddenError(status, body, headers);
    if (status === 404) return new NotFoundError(status, body, headers);
    if (status === 409) return new ConflictError(status, body, headers);
    if (status === 429) return new RateLimitError(status, body, headers);
    if (status === 503) return new UnavailableError(status, body, headers);
    if (status >= 500) return new ServerError(status, body, headers);
    return new HttpError(status, body, headers);
  }
}

/**
 * The gateway refused the input: `field` names which, `serverMessage` says how to fix it.
 * @public
 */
export class ValidationError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'validation' });
  }
}

/**
 * A 401: the session is gone or was refused, and only signing in again helps.
 * @public
 */
export class UnauthenticatedError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, {
      code: 'unauthenticated',
      message: `Request failed with status code ${status}: your session has ended, please sign in again.`,
    });
  }
}

/** @public */
export class ForbiddenError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'forbidden' });
  }
}

/** @public */
export class NotFoundError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'not_found' });
  }
}

/** @public */
export class ConflictError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'conflict' });
  }
}

/** @public */
export class RateLimitError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'rate_limited' });
  }
}

/** @public */
export class ServerError extends HttpError {
  constructor(
    status: number,
    body: unknown,
    headers?: Readonly<Record<string, string>>,
    code: ErrorCode = 'internal',
  ) {
    super(status, body, headers, { code });
  }
}

/**
 * A 503: the gateway is busy or a dependency is down; `Retry-After` says when to try again.
 * @public
 */
export class UnavailableError extends ServerError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, 'unavailable');
  }
}

/**
 * The request never got an answer: connection refused, reset, DNS, CORS.
 * @public
 */
export class NetworkError extends BlockCatchError {
  constructor(message = 'Network error', options?: { cause?: unknown }) {
    super('network_error', message, options);
  }
}

/** @public */
export class TimeoutError extends BlockCatchError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number, what = 'Request') {
    super('timeout', `${what} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The caller's AbortSignal fired.
 * @public
 */
export class AbortedError extends BlockCatchError {
  constructor(options?: { cause?: unknown }) {
    super('aborted', 'Request was aborted', options);
  }
}

/**
 * A failure reported by the identity service, with its own code and message
 * (`NotAuthorizedException`, `CodeMismatchException`…), or one of the session messages
 * ('User is not authenticated', …).
 * @public
 */
export class AuthError extends BlockCatchError {
  /** The identity service's error code, e.g. 'NotAuthorizedException'. */
  readonly identityCode: string;

  constructor(identityCode: string, message: string, options?: { cause?: unknown }) {
    super('auth_error', message, options);
    this.identityCode = identityCode;
  }

  /** Turns what the identity client rejected with into AuthError, or NetworkError when offline. */
  static fromIdentity(error: unknown): AuthError | NetworkError {
    if (error instanceof AuthError || error instanceof NetworkError) return error;
    const e = (error ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
    // The library's own checks ('PASSWORD parameter is required') throw a bare Error.
    const code =
      typeof e.code === 'string'
        ? e.code
        : typeof e.name === 'string' && e.name !== 'Error'
          ? e.name
          : 'InvalidParameterException';
    const message = typeof e.message === 'string' && e.message ? e.message : code;
    if (code === 'NetworkError' || message === 'Network error') {
      return new NetworkError('Network error: the identity service could not be reached', {
        cause: error,
      });
    }
    return new AuthError(code, message, { cause: error });
  }
}

/**
 * A gateway answer that does not match the SDK's schema; `path` names the first field that failed.
 * @public
 */
export class ResponseShapeError extends BlockCatchError {
  readonly path: string;
  readonly endpoint: string;
  readonly issues: ReadonlyArray<{ path: string; message: string }>;

  constructor(endpoint: string, issues: ReadonlyArray<{ path: string; message: string }>) {
    const first = issues[0] ?? { path: '(body)', message: 'unexpected answer' };
    super('response_shape', `Unexpected answer from ${endpoint}: ${first.path}: ${first.message}`);
    this.endpoint = endpoint;
    this.path = first.path;
    this.issues = issues;
  }

  static fromZod(endpoint: string, error: ZodError): ResponseShapeError {
    return new ResponseShapeError(
      endpoint,
      error.issues.map((issue) => ({
        path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
        message: issue.message,
      })),
    );
  }
}

/**
 * The SDK was set up in a way that cannot work: a missing key, an unsafe file, a bad option.
 * @public
 */
export class ConfigError extends BlockCatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config', message, options);
  }
}
