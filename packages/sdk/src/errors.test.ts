// The error hierarchy: one factory maps statuses, every error carries a stable code.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AuthError,
  BlockCatchError,
  ForbiddenError,
  HttpError,
  NetworkError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  UnauthenticatedError,
} from './errors.js';

describe('HttpError.fromResponse', () => {
  it("says 'Request failed with status code N' and keeps the server's code and message", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 300, max: 599 }).filter((s) => s !== 401),
        (status) => {
          const error = HttpError.fromResponse(status, { code: 'X', message: 'why' });
          expect(error).toBeInstanceOf(HttpError);
          expect(error).toBeInstanceOf(BlockCatchError);
          expect(error.message).toBe(`Request failed with status code ${status}`);
          expect(error.status).toBe(status);
          expect(error.serverCode).toBe('X');
          expect(error.serverMessage).toBe('why');
        },
      ),
    );
  });

  it('maps 401, 403, 429 and 5xx to their own classes and codes', () => {
    expect(HttpError.fromResponse(401, {})).toBeInstanceOf(UnauthenticatedError);
    expect(HttpError.fromResponse(403, {}).code).toBe('forbidden');
    expect(HttpError.fromResponse(403, {})).toBeInstanceOf(ForbiddenError);
    expect(HttpError.fromResponse(429, {})).toBeInstanceOf(RateLimitError);
    expect(HttpError.fromResponse(503, {})).toBeInstanceOf(ServerError);
    expect(HttpError.fromResponse(418, {}).code).toBe('http_error');
  });

  it('tells the user to sign in again on a 401', () => {
    const error = HttpError.fromResponse(401, { code: 'Unauthenticated', message: 'x' });
    expect(error.message).toMatch(/^Request failed with status code 401/);
    expect(error.message).toMatch(/sign in again/);
  });

  it('survives a body that is not the gateway error shape', () => {
    for (const body of [undefined, null, 'text', 42, { message: 7 }, { message: '' }]) {
      expect(HttpError.fromResponse(500, body).serverMessage).toBeUndefined();
    }
  });
});

describe('AuthError.fromIdentity', () => {
  it("keeps the identity service's code and message", () => {
    const raw = Object.assign(new Error('Incorrect username or password.'), {
      code: 'NotAuthorizedException',
    });
    const error = AuthError.fromIdentity(raw);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).identityCode).toBe('NotAuthorizedException');
    expect(error.message).toBe('Incorrect username or password.');
  });

  it('turns the library network failure into NetworkError', () => {
    expect(AuthError.fromIdentity(new Error('Network error'))).toBeInstanceOf(NetworkError);
  });
});

describe('ResponseShapeError', () => {
  it('names the path that did not match', () => {
    const schema = z.object({ Items: z.array(z.object({ phoneNumber: z.string() })) });
    const result = schema.safeParse({ Items: [{ phoneNumber: '1' }, { phoneNumber: 2 }] });
    if (result.success) throw new Error('expected a failure');
    const error = ResponseShapeError.fromZod('GET /x', result.error);
    expect(error.path).toBe('Items.1.phoneNumber');
    expect(error.message).toMatch(/GET \/x: Items\.1\.phoneNumber/);
    expect(error.code).toBe('response_shape');
  });
});
