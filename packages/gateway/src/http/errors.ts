// The gateway's one error shape, `{ code, message }`, and the handler that maps every failure to it.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const unauthenticated = (message = 'User is not authenticated') =>
  new ApiError(401, 'Unauthenticated', message);
export const forbidden = (message: string) => new ApiError(403, 'Forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'NotFound', message);
export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);

/** Names the first failing field and what was wrong with it, e.g. `numbers.0.number: …`. */
export function describeZodError(error: ZodError, what = 'body'): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.join('.') : what;
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError | ZodError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({ code: error.code, message: error.message });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ code: 'BadRequest', message: describeZodError(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, body too large, wrong content type) keep their status
      // but speak our codes, so clients branch on one vocabulary.
      return reply.status(status).send({ code: fastifyErrorCode(status), message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'InternalError', message: 'An error has occurred.' });
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ code: 'NotFound', message: `No route for ${request.method} ${request.url}` }),
  );
}

function fastifyErrorCode(status: number): string {
  if (status === 413) return 'PayloadTooLarge';
  if (status === 415) return 'UnsupportedMediaType';
  if (status === 404) return 'NotFound';
  return 'BadRequest';
}
