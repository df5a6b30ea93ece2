// Every `code` the gateway's REST API answers with in `{ code, message, field? }`: the gateway
// throws only these, the SDK maps them to its error classes, and the web app and the CLI choose
// their texts by them. docs/architecture.md says what each means.

export const ERROR_CODES = [
  'validation',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'unavailable',
  'internal',
  'no_warehouse',
  'no_pending_sign_in',
  'invalid_code',
  'not_connected',
  'system_off',
  'platform_sign_in_failed',
  'platform_throttled',
  'platform_unavailable',
  'platform_code_required',
  'platform_verification_required',
  'verification_pending',
  'no_verification_asked',
  'payment_failed',
  'payment_not_processing',
  'payment_in_progress',
  'payment_provider_unavailable',
  'payment_declined',
  'payment_request_invalid',
  'idempotency_key_reused',
  'bad_signature',
  'unbound_variable',
  'template_language',
  'template_not_approved',
  'job_started',
] as const;
export type GatewayErrorCode = (typeof ERROR_CODES)[number];

export function isGatewayErrorCode(value: unknown): value is GatewayErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
