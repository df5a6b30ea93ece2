// Content negotiation for the cached tables' gzip copy.
import { expect, it } from 'vitest';
import { acceptsGzip } from './routes.js';

it('takes gzip when the client lists it or *, and not when it refuses it with q=0', () => {
  expect(acceptsGzip('gzip, deflate, br')).toBe(true);
  expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
  expect(acceptsGzip('*')).toBe(true);
  expect(acceptsGzip('gzip;q=0')).toBe(false);
  expect(acceptsGzip('identity')).toBe(false);
  expect(acceptsGzip(undefined)).toBe(false);
});
