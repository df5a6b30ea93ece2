// One call to the identity service's JSON protocol (`X-Amz-Target`), for the token operations the
// SDK makes itself; sign-up and SRP sign-in go through amazon-cognito-identity-js.
import { AuthError, NetworkError } from '../errors.js';

export async function callIdentity<T>(
  endpoint: string,
  operation: string,
  params: Record<string, unknown>,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
        'cache-control': 'no-store',
      },
      body: JSON.stringify(params),
    });
  } catch (error) {
    throw new NetworkError('Network error: the identity service could not be reached', {
      cause: error,
    });
  }
  const text = await response.text();
  let data: Record<string, unknown> = {};
  try {
    data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // A non-JSON error page: the status below says enough.
  }
  if (!response.ok) {
    // Cognito names the error in `__type`, sometimes as 'namespace#Code'.
    const type = data.__type ?? data.code ?? `HTTP${response.status}`;
    const code = String(type).split('#').pop() ?? String(type);
    const message = data.message ?? data.Message ?? `Identity service answered ${response.status}`;
    throw new AuthError(code, String(message));
  }
  return data as T;
}
