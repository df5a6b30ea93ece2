// Which failures mean "the database cannot be reached" (503, try again) rather than "this statement
// failed" (the caller's own answer): callers of every kind rely on the line between the two.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, isDatabaseUnreachable } from './db-availability.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it('holds every SQLSTATE of class 08 (connection exception) unreachable', () => {
    const alphanumeric = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    fc.assert(
      fc.property(fc.array(alphanumeric, { minLength: 3, maxLength: 3 }), (rest) =>
        isDatabaseUnreachable(withCode(`08${rest.join('')}`)),
      ),
    );
  });

  it('holds a server shutting down, a lost socket and a connect that timed out unreachable', () => {
    for (const code of ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT']) {
      expect(isDatabaseUnreachable(withCode(code)), code).toBe(true);
    }
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout expired',
    ]) {
      expect(isDatabaseUnreachable(new Error(message)), message).toBe(true);
    }
    expect(isDatabaseUnreachable(new DatabaseUnavailableError('restarting'))).toBe(true);
  });

  it('leaves a statement’s own errors to the caller', () => {
    // Unique violation, syntax, division by zero, check violation, serialization, cancel.
    for (const code of ['23505', '42601', '22012', '23514', '40001', '57014']) {
      expect(isDatabaseUnreachable(withCode(code, 'statement failed')), code).toBe(false);
    }
    expect(isDatabaseUnreachable(new Error('The transaction has already ended.'))).toBe(false);
    expect(isDatabaseUnreachable('Connection terminated')).toBe(false);
  });
});
