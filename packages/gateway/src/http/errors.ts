// The gateway's one error body, `{ code, message, field? }`, and the handler that maps every
// failure to it. `code` is the contract clients branch on; `message` is for people.
import { type GatewayErrorCode, isGatewayErrorCode } from '@blockcatch/sdk';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { DatabaseBusyError } from '../storage/db.js';
import { isDatabaseUnreachable } from '../storage/db-availability.js';
import { withoutPathSecrets } from './request-log.js';

/** Seconds a 503 asks the caller to wait before trying again. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** Every `code` the REST API answers with: the SDK's one list. */
export type ErrorCode = GatewayErrorCode;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** The input that failed, as a path (`numbers.3.number`, `limit`, `Idempotency-Key`). */
    readonly field?: string,
  ) {
    super(message);
    this.statusCode = status;
  }

  /** Fastify's name for the status, so handlers of other shapes (Cognito's) keep the 4xx. */
  statusCode: number;

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.field === undefined ? {} : { field: this.field }),
    };
  }
}

export const unauthenticated = (message = 'User is not authenticated') =>
  new ApiError(401, 'unauthenticated', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const conflict = (message: string, field?: string) =>
  new ApiError(409, 'conflict', message, field);
/** A 400 naming the field at fault; the message says what to send instead. */
export const invalid = (field: string | undefined, message: string) =>
  new ApiError(400, 'validation', field === undefined ? message : `${field}: ${message}`, field);

/** The most of a caller's own input an error message may repeat. */
export const MAX_ECHO = 40;

/** A caller's value made safe to quote in a message: JSON-quoted and cut to MAX_ECHO characters. */
export function quote(value: string): string {
  const cut = value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value;
  return JSON.stringify(cut);
}

/**
 * A field's path as an error names it, e.g. `numbers.3.number`. A key is the caller's own text (a
 * record's key can be 100,000 characters), so each part is cut like any other echo.
 */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part) => {
      const text = String(part);
      return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
    })
    .join('.');
}

/** Names up to three failing fields and what was wrong with each, e.g. `numbers.0.number: …`. */
export function describeZodError(error: ZodError, what = 'body'): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? fieldPath(issue.path) : what}: ${issue.message}`)
    .join('; ');
}

/** The first zod issue as a 400: the field, what was wrong, and for unknown fields their names. */
export function fromZodError(error: ZodError, part?: string): ApiError {
  const issue = error.issues[0];
  if (!issue) return invalid(part, 'is not valid');
  const path = issue.path.map((part) => fieldPath([part]));
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // A body of one of several shapes: report against the shape it came closest to.
    const closest = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    const nested = closest.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
    if (nested.length > 0) return fromZodError(new ZodError(nested), part);
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.slice(0, 5).map(quote);
    const more = issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : '';
    const first = [...path, String(issue.keys[0]).slice(0, MAX_ECHO)].join('.');
    return invalid(first, `unknown field(s) ${keys.join(', ')}${more}; remove them`);
  }
  const field = path.length > 0 ? path.join('.') : part;
  // zod's own wording for a missing value is "Invalid input: expected string, received undefined".
  const missing =
    issue.code === 'invalid_type' &&
    issue.input === undefined &&
    issue.message.startsWith('Invalid input');
  const refused = invalid(field, missing ? 'is required' : issue.message);
  // A schema names a domain code on its refinement: `params: { code: 'no_warehouse' }`.
  const domain = issue.code === 'custom' ? issue.params?.code : undefined;
  return isGatewayErrorCode(domain) ? new ApiError(400, domain, refused.message, field) : refused;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError | ZodError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.status === 503)
        reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return reply.status(error.status).send(error.toBody());
    }
    const unavailable = unavailableMessage(error);
    if (unavailable) return sendUnavailable(reply, unavailable);
    if (error instanceof ZodError) {
      const apiError = fromZodError(error);
      return reply.status(apiError.status).send(apiError.toBody());
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's and its plugins' own 4xx (malformed JSON, body too large, wrong content type,
      // rate limits) keep their status but speak our codes, so clients branch on one vocabulary.
      return reply
        .status(status)
        .send({ code: codeOfStatus(status), message: fastifyMessage(error, status) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'internal', message: 'An error has occurred.' });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = withoutPathSecrets(request.url.split('?')[0] ?? '/');
    return reply
      .status(404)
      .send({ code: 'not_found', message: `No route for ${request.method} ${path.slice(0, 100)}` });
  });
}

/**
 * What to tell a caller refused for a passing reason (the database's queue is full, the database
 * cannot be reached, the gateway is shutting down), or null for any other failure: these answer
 * 503 `unavailable` with Retry-After, never 500.
 */
export function unavailableMessage(error: unknown): string | null {
  if (error instanceof DatabaseBusyError) return 'The gateway is busy; try again shortly.';
  if (isDatabaseUnreachable(error)) return 'The database cannot be reached; try again shortly.';
  if ((error as FastifyError | null)?.statusCode === 503) {
    return 'The gateway is unavailable; try again shortly.';
  }
  return null;
}

/** The gateway's one 503: `unavailable`, with how long to wait in Retry-After. */
export function sendUnavailable(reply: FastifyReply, message: string) {
  return reply
    .status(503)
    .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
    .send({ code: 'unavailable', message });
}

function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
    case 405:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return 'validation';
  }
}

/** Fastify's messages never quote the body, but some quote a header: keep them short. */
function fastifyMessage(error: FastifyError, status: number): string {
  if (status === 415) {
    return 'Content-Type is not supported here; send application/json.';
  }
  if (status === 413) return 'The request body is too large.';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return 'body: Content-Type is application/json but the body is empty; send a JSON object.';
  }
  return error.message.slice(0, 200);
}
