// Reads an id token's claims without verifying it: the client only needs the expiry and the
// phone number; the gateway verifies every token it is sent.
import { AuthError } from '../errors.js';

export interface IdTokenClaims {
  /** Expiry, epoch seconds. */
  exp: number;
  phone_number?: string;
  phone_number_verified?: boolean;
  name?: string;
  'cognito:username'?: string;
  sub?: string;
}

export function decodeIdToken(token: string): IdTokenClaims {
  const payload = token.split('.')[1];
  try {
    if (!payload) throw new Error('no payload');
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const claims = JSON.parse(json) as Partial<IdTokenClaims>;
    if (typeof claims.exp !== 'number') throw new Error('no exp claim');
    return claims as IdTokenClaims;
  } catch (error) {
    throw new AuthError(
      'InvalidToken',
      'Local storage holds an unreadable ID Token, Please authenticate',
      { cause: error },
    );
  }
}
