// The HTTP face of the pool: Cognito's JSON protocol on `POST /` (X-Amz-Target picks the
// operation) and the JWKS that lets anyone verify the tokens.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import {
  ApiError,
  MAX_ECHO,
  quote,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
  unavailableMessage,
} from '../http/errors.js';
import { parseJsonBody } from '../http/json-body.js';
import { CognitoError } from './errors.js';
import { operations, type PoolContext } from './operations.js';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

/** Fastify's own message, cut so that what it quotes of the request stays short. */
const cut = (message: string) =>
  message.length > 2 * MAX_ECHO ? `${message.slice(0, 2 * MAX_ECHO)}…` : message;

function sendCognitoError(reply: FastifyReply, error: CognitoError) {
  return reply
    .status(error.status)
    .header('x-amzn-errortype', error.type)
    .send({ __type: error.type, message: error.message });
}

export function registerIdentityRoutes(
  app: FastifyInstance,
  ctx: PoolContext,
  userPoolId: string,
): void {
  const jwks = () => ({ keys: [ctx.key.publicJwk] });
  app.get('/.well-known/jwks.json', { config: { auth: 'public' } }, async () => jwks());
  app.get(`/${userPoolId}/.well-known/jwks.json`, { config: { auth: 'public' } }, async () =>
    jwks(),
  );

  // Its own context, so the content-type parser and the Cognito error shape stay on this route.
  app.register(async (pool) => {
    pool.addContentTypeParser(
      'application/x-amz-json-1.1',
      // No bodyLimit here: the app's 5 MB limit applies.
      { parseAs: 'string' },
      (_request, body, done) => {
        if (body === '') return done(null, {});
        try {
          // The app's checks (depth, NUL, unpaired surrogates, __proto__), in Cognito's shape.
          done(null, parseJsonBody(body as string));
        } catch (error) {
          if (error instanceof ApiError && error.field !== undefined) {
            return done(new CognitoError('InvalidParameterException', error.message));
          }
          done(new CognitoError('SerializationException', 'The request body is not valid JSON.'));
        }
      },
    );

    pool.setErrorHandler((error: FastifyError | CognitoError, request, reply) => {
      if (error instanceof CognitoError) return sendCognitoError(reply, error);
      const unavailable = unavailableMessage(error);
      if (unavailable) {
        // Cognito's shape for its SDK, with the gateway's `unavailable` code beside it: every 503
        // says when to try again.
        return reply
          .status(503)
          .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
          .header('x-amzn-errortype', 'InternalErrorException')
          .send({ __type: 'InternalErrorException', code: 'unavailable', message: unavailable });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // Fastify's own refusals: malformed JSON, a body over 5 MB, an unknown content type.
        const type =
          status === 413
            ? 'InvalidParameterException'
            : status === 429
              ? 'LimitExceededException'
              : 'SerializationException';
        // Their messages can quote a header (an unknown content type): cut like any echo.
        return sendCognitoError(reply, new CognitoError(type, cut(error.message), status));
      }
      request.log.error({ err: error }, 'identity operation failed');
      return sendCognitoError(
        reply,
        new CognitoError('InternalErrorException', 'An error has occurred.', 500),
      );
    });

    // Public: Cognito's operations authenticate by their own parameters (tokens, passwords, codes).
    pool.post('/', { config: { auth: 'public' } }, async (request) => {
      const target = request.headers['x-amz-target'];
      const name =
        typeof target === 'string' && target.startsWith(TARGET_PREFIX)
          ? target.slice(TARGET_PREFIX.length)
          : undefined;
      const operation = name === undefined ? undefined : operations[name];
      if (!operation || !Object.hasOwn(operations, name!)) {
        throw new CognitoError(
          'UnknownOperationException',
          `X-Amz-Target: ${typeof target === 'string' ? quote(target) : 'null'} is not an operation of this user pool; send ${TARGET_PREFIX}<Operation>, e.g. ${TARGET_PREFIX}InitiateAuth.`,
        );
      }
      const result = await operation(ctx, request.body, { ip: request.ip });
      const session = result.AuthenticationResult as
        | { IdToken?: string; RefreshToken?: string }
        | undefined;
      // A refresh answers without a refresh token: only a new session is a sign-in.
      if (ctx.onSignIn && session?.IdToken && session.RefreshToken) {
        await ctx.onSignIn(session.IdToken, request.ip);
      }
      return result;
    });
  });
}
