// The SDK's one error hierarchy. Callers branch on `instanceof` or `code`, never on message text;
// `HttpError.fromResponse` is the only place that maps an HTTP status to an error class.
import type { ZodError } from 'zod';

export type ErrorCode =
  | 'http_error'
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'server_error'
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'auth_error'
  | 'response_shape'
  | 'config';

export class BlockCatchError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** The gateway's error body, `{ code, message }`, when it sent one. */
interface ServerErrorBody {
  code?: string;
  message?: string;
}

function readServerBody(body: unknown): ServerErrorBody {
  if (!body || typeof body !== 'object') return {};
  const { code, message } = body as Record<string, unknown>;
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' && message.length > 0 ? message : undefined,
  };
}

/** A gateway answer outside 200–299: 'Request failed with status code N'. */
export class HttpError extends BlockCatchError {
  readonly status: number;
  /** The `code` of the gateway's `{ code, message }` body, e.g. 'Forbidden'. */
  readonly serverCode: string | undefined;
  /** The `message` of the gateway's body: what the screens show for a failed send. */
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
    this.serverMessage = server.message;
    this.headers = headers;
  }

  /** The one place that decides which class a status becomes. */
  static fromResponse(
    status: number,
    body: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): HttpError {
    if (status === 400) return new BadRequestError(status, body, headers);
    if (status === 401) return new UnauthenticatedError(status, body, headers);
    if (status === 403) return new ForbiddenError(status, body, headers);
    if (status === 404) return new NotFoundError(status, body, headers);
    if (status === 409) return new ConflictError(status, body, headers);
    if (status === 429) return new RateLimitError(status, body, headers);
    if (status >= 500) return new ServerError(status, body, headers);
    return new HttpError(status, body, headers);
  }
}

export class BadRequestError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'bad_request' });
  }
}

/** A 401: the session is gone or was refused, and only signing in again helps. */
export class UnauthenticatedError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, {
      code: 'unauthenticated',
      message: `Request failed with status code ${status}: your session has ended, please sign in again.`,
    });
  }
}

export class ForbiddenError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'forbidden' });
  }
}

export class NotFoundError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'not_found' });
  }
}

export class ConflictError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'conflict' });
  }
}

export class RateLimitError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'rate_limited' });
  }
}

export class ServerError extends HttpError {
  constructor(status: number, body: unknown, headers?: Readonly<Record<string, string>>) {
    super(status, body, headers, { code: 'server_error' });
  }
}

/** The request never got an answer: connection refused, reset, DNS, CORS. */
export class NetworkError extends BlockCatchError {
  constructor(message = 'Network error', options?: { cause?: unknown }) {
    super('network_error', message, options);
  }
}

export class TimeoutError extends BlockCatchError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number, what = 'Request') {
    super('timeout', `${what} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's AbortSignal fired. */
export class AbortedError extends BlockCatchError {
  constructor(options?: { cause?: unknown }) {
    super('aborted', 'Request was aborted', options);
  }
}

/**
 * A failure reported by the identity service, with its own code and message
 * (`NotAuthorizedException`, `CodeMismatchException`…), or one of the session messages
 * ('User is not authenticated', …).
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

/** A gateway answer that does not match the SDK's schema; `path` names the first field that failed. */
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

/** The SDK was set up in a way that cannot work: a missing key, an unsafe file, a bad option. */
export class ConfigError extends BlockCatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config', message, options);
  }
}
