// What a failed request means for the person in front of the screen, chosen by the gateway's
// error `code` (never its message text): what happened and what to do next.
import { BlockCatchError, type GatewayErrorCode, HttpError } from '@blockcatch/sdk';
import type { TFunction } from 'i18next';

/** The gateway's codes that have a sentence of their own (`errors.byCode.<code>`). */
const BY_CODE = new Set<string>([
  'rate_limited',
  'unavailable',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'validation',
  'payload_too_large',
  'internal',
  'job_started',
  'template_language',
  'template_not_approved',
  'idempotency_key_reused',
  'payment_declined',
  'payment_request_invalid',
] satisfies GatewayErrorCode[]);

/**
 * The sentence for `error`, or `fallback` (the screen's own "couldn't …" line) when the code
 * says nothing more specific.
 */
export function errorMessage(t: TFunction, error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    const code = error.serverCode ?? (error.status >= 500 ? 'internal' : undefined);
    if (code === 'rate_limited' || error.status === 429) {
      const seconds = Number(error.headers['retry-after']);
      return t('errors.byCode.rate_limited', {
        seconds: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 30,
      });
    }
    if (code === 'validation' && error.serverMessage) {
      return t('errors.byCode.validation', { message: error.serverMessage });
    }
    if (code === 'unbound_variable') {
      // The field names the variable: `msgTemplate.values.<key>`.
      return t('errors.byCode.unbound_variable', { variable: error.field?.split('.').pop() ?? '' });
    }
    if (code && code !== 'validation' && BY_CODE.has(code)) return t(`errors.byCode.${code}`);
    return fallback;
  }
  if (
    error instanceof BlockCatchError &&
    (error.code === 'network_error' || error.code === 'timeout')
  ) {
    return t('errors.byCode.network');
  }
  return fallback;
}
