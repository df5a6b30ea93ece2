// What the rest of the gateway needs from the identity service.
import type { FastifyInstance } from 'fastify';

/** The verified claims of a Cognito id token. */
export interface IdTokenClaims {
  sub: string;
  'cognito:username': string;
  phone_number: string;
  phone_number_verified: boolean;
  name?: string;
  token_use: 'id';
  exp: number;
  iat: number;
}

export interface Identity {
  /** `POST /` (X-Amz-Target: AWSCognitoIdentityProviderService.*) and `/.well-known/jwks.json`. */
  registerRoutes(app: FastifyInstance): void;
  /** Verifies signature, issuer, audience, `token_use` and expiry; throws a 401 ApiError otherwise. */
  verifyIdToken(token: string): Promise<IdTokenClaims>;
  /**
   * Creates a confirmed account with this password (seeding); an existing one is left as it is.
   * `temporaryPassword` makes sign-in answer NEW_PASSWORD_REQUIRED (an admin-made account);
   * `smsMfa` makes it answer SMS_MFA.
   */
  ensureAccount(input: {
    phoneNumber: string;
    password: string;
    name: string;
    temporaryPassword?: boolean;
    smsMfa?: boolean;
  }): Promise<void>;
}

/** How identity delivers confirmation and reset codes: through the message provider. */
export type CodeSender = (phoneNumber: string, text: string) => Promise<void>;
