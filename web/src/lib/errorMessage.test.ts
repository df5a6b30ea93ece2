import { HttpError, NetworkError } from '@blockcatch/sdk';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { errorMessage } from './errorMessage.js';

// Echoes the key and its values, so the test reads which sentence was chosen.
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

describe('errorMessage', () => {
  it('chooses the sentence by the gateway code, not by its message', () => {
    const forbidden = HttpError.fromResponse(403, { code: 'forbidden', message: 'whatever' });
    expect(errorMessage(t, forbidden, 'fallback')).toBe('errors.byCode.forbidden');
    const busy = HttpError.fromResponse(503, { code: 'unavailable', message: 'Forbidden' });
    expect(errorMessage(t, busy, 'fallback')).toBe('errors.byCode.unavailable');
  });

  it('says how long to wait when rate limited', () => {
    const limited = HttpError.fromResponse(429, { code: 'rate_limited' }, { 'retry-after': '42' });
    expect(errorMessage(t, limited, 'fallback')).toBe('errors.byCode.rate_limited {"seconds":42}');
  });

  it('passes a validation message on, since it names the field and the fix', () => {
    const invalid = HttpError.fromResponse(400, {
      code: 'validation',
      message: 'phoneNumber: expected a US number',
    });
    expect(errorMessage(t, invalid, 'fallback')).toContain('phoneNumber: expected a US number');
  });

  it('names the template variable that has no value, from the field the gateway names', () => {
    const unbound = HttpError.fromResponse(400, {
      code: 'unbound_variable',
      message: 'anything',
      field: 'msgTemplate.values.week',
    });
    expect(errorMessage(t, unbound, 'fallback')).toBe(
      'errors.byCode.unbound_variable {"variable":"week"}',
    );
    const started = HttpError.fromResponse(409, { code: 'job_started', message: 'x' });
    expect(errorMessage(t, started, 'fallback')).toBe('errors.byCode.job_started');
  });

  it('says to check the connection when the gateway was not reached', () => {
    expect(errorMessage(t, new NetworkError(), 'fallback')).toBe('errors.byCode.network');
  });

  it("keeps the screen's own sentence for codes it knows better", () => {
    const domain = HttpError.fromResponse(409, { code: 'invalid_code' });
    expect(errorMessage(t, domain, 'flex.otp.invalid')).toBe('flex.otp.invalid');
    expect(errorMessage(t, new Error('boom'), 'fallback')).toBe('fallback');
  });
});
