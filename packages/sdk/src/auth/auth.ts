// Sign-up, sign-in and the session: amazon-cognito-identity-js for the SRP exchange and the
// unauthenticated flows, our own calls for the token operations, and a refresher that keeps the
// id token fresh (docs/product.md, 'Where a signed-in driver goes').
import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  type IAuthenticationCallback,
  type ISignUpResult,
} from 'amazon-cognito-identity-js';
import { normalizePhone } from '../core/phone.js';
import { normalizeReferralCode } from '../core/referral-code.js';
import { MARKETING_CONSENT_ATTRIBUTE, marketingConsentAttribute } from '../core/schemas/consent.js';
import { AuthError, ConfigError } from '../errors.js';
import { decodeIdToken } from './id-token.js';
import { callIdentity } from './identity-request.js';
import { createMemorySessionStore, type SessionStore } from './session-store.js';
import { createTokenRefresher } from './token-refresher.js';

export interface AuthLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

export interface AuthOptions {
  /** e.g. 'us-east-1_Sandbox01'. */
  userPoolId: string;
  clientId: string;
  /** The identity service's URL; the sandbox gateway's base URL. Default: AWS Cognito. */
  endpoint?: string;
  /** Default: in memory. `createFileSessionStore()` for the CLI, localStorage for the web. */
  storage?: SessionStore;
  /** Where refresh failures are reported; tokens are never passed to it. Default: console. */
  logger?: AuthLogger;
  /** Epoch milliseconds; tests move it to expire tokens. */
  now?: () => number;
}

export interface Session {
  username: string;
  idToken: string;
  accessToken: string;
  refreshToken: string | null;
  /** When the id token expires, epoch milliseconds. */
  expiresAt: number;
  phoneNumber: string | undefined;
  phoneNumberVerified: boolean;
  name: string | undefined;
}

export type SignInResult =
  | { status: 'signedIn'; session: Session }
  | {
      status: 'challenge';
      challenge: 'SMS_MFA';
      /** Where the code went, e.g. `{ CODE_DELIVERY_DESTINATION: '+*******1234' }`. */
      parameters: Record<string, string>;
      answer(code: string): Promise<SignInResult>;
    }
  | {
      status: 'challenge';
      challenge: 'NEW_PASSWORD_REQUIRED';
      requiredAttributes: string[];
      answer(newPassword: string, attributes?: Record<string, string>): Promise<SignInResult>;
    };

/** The sign-up attribute carrying the inviting driver's referral code. */
export const REFERRAL_ATTRIBUTE = 'custom:referral';

export interface SignUpResult {
  username: string;
  userConfirmed: boolean;
  userSub: string;
  codeDestination: string | undefined;
}

export interface UserProfile {
  username: string;
  attributes: Record<string, string>;
}

const consoleLogger: AuthLogger = {
  warn: (message, details) => console.warn(message, details ?? ''),
};

export function createAuth(options: AuthOptions) {
  const storage = options.storage ?? createMemorySessionStore();
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? Date.now;
  const { clientId } = options;
  let pool: CognitoUserPool;
  try {
    pool = new CognitoUserPool({
      UserPoolId: options.userPoolId,
      ClientId: clientId,
      Storage: storage,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    });
  } catch (error) {
    throw new ConfigError(
      `userPoolId "${options.userPoolId}" is not valid: it looks like region_id, e.g. us-east-1_Sandbox01 (${(error as Error).message})`,
      { cause: error },
    );
  }
  const region = options.userPoolId.split('_')[0];
  const endpoint = options.endpoint ?? `https://cognito-idp.${region}.amazonaws.com/`;
  // The identity library's storage layout, so that sessions it writes and we read are one.
  const prefix = `CognitoIdentityServiceProvider.${clientId}`;
  const lastUserKey = `${prefix}.LastAuthUser`;
  const pendingKey = `blockcatch.${clientId}.pendingUsername`;
  const tokenKey = (username: string, name: string) => `${prefix}.${username}.${name}`;

  const refresher = createTokenRefresher<Session>({
    now,
    refresh: (session) =>
      refreshTokens(session).catch((error: unknown) => {
        logRefreshFailure(error);
        throw error;
      }),
    // Already logged above, once per refresh however many callers were waiting on it.
    onBackgroundFailure: () => {},
  });

  function userFor(username: string): CognitoUser {
    return new CognitoUser({ Username: username, Pool: pool, Storage: storage });
  }

  function loadSession(): Session | null {
    const username = storage.getItem(lastUserKey);
    if (!username) return null;
    const idToken = storage.getItem(tokenKey(username, 'idToken'));
    const accessToken = storage.getItem(tokenKey(username, 'accessToken'));
    if (!idToken || !accessToken) return null;
    const refreshToken = storage.getItem(tokenKey(username, 'refreshToken')) || null;
    return toSession(username, idToken, accessToken, refreshToken);
  }

  function toSession(
    username: string,
    idToken: string,
    accessToken: string,
    refreshToken: string | null,
  ): Session {
    const claims = decodeIdToken(idToken);
    return {
      username,
      idToken,
      accessToken,
      refreshToken,
      expiresAt: claims.exp * 1000,
      phoneNumber: claims.phone_number,
      phoneNumberVerified: claims.phone_number_verified === true,
      name: claims.name,
    };
  }

  function saveTokens(
    session: Omit<Session, 'expiresAt' | 'phoneNumber' | 'phoneNumberVerified' | 'name'>,
  ) {
    storage.setItem(tokenKey(session.username, 'idToken'), session.idToken);
    storage.setItem(tokenKey(session.username, 'accessToken'), session.accessToken);
    if (session.refreshToken) {
      storage.setItem(tokenKey(session.username, 'refreshToken'), session.refreshToken);
    }
    storage.setItem(tokenKey(session.username, 'clockDrift'), '0');
    storage.setItem(lastUserKey, session.username);
  }

  function clearSession(username: string | null = storage.getItem(lastUserKey)): void {
    refresher.cancel();
    if (!username) return;
    for (const name of ['idToken', 'accessToken', 'refreshToken', 'clockDrift', 'userData']) {
      storage.removeItem(tokenKey(username, name));
    }
    storage.removeItem(lastUserKey);
  }

  async function refreshTokens(session: Session): Promise<Session> {
    if (!session.refreshToken) {
      throw new AuthError('NoRefreshToken', 'Cannot retrieve a new session. Please authenticate.');
    }
    let result: {
      AuthenticationResult?: { IdToken?: string; AccessToken?: string; RefreshToken?: string };
    };
    try {
      result = await callIdentity(endpoint, 'InitiateAuth', {
        ClientId: clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: session.refreshToken },
      });
    } catch (error) {
      if (isNotAuthorized(error) && storedRefreshToken() === session.refreshToken) {
        clearSession(session.username);
      }
      throw error;
    }
    const tokens = result.AuthenticationResult;
    if (!tokens?.IdToken || !tokens.AccessToken) {
      throw new AuthError('InvalidResponse', 'Cannot retrieve a new session. Please authenticate.');
    }
    // Signed out (or in as someone else) while the refresh was running: do not bring it back.
    if (storedRefreshToken() !== session.refreshToken) {
      const current = loadSession();
      if (current) return current;
      throw new AuthError('NotAuthenticated', 'User is not authenticated');
    }
    const fresh = {
      username: session.username,
      idToken: tokens.IdToken,
      accessToken: tokens.AccessToken,
      refreshToken: tokens.RefreshToken ?? session.refreshToken,
    };
    saveTokens(fresh);
    return toSession(fresh.username, fresh.idToken, fresh.accessToken, fresh.refreshToken);
  }

  function storedRefreshToken(): string | null {
    const username = storage.getItem(lastUserKey);
    return username ? storage.getItem(tokenKey(username, 'refreshToken')) : null;
  }

  function logRefreshFailure(error: unknown): void {
    const code =
      error instanceof AuthError ? error.identityCode : (error as { code?: string })?.code;
    if (isNotAuthorized(error)) {
      logger.warn('Session refresh was refused; the stored session was cleared. Sign in again.', {
        code,
      });
      return;
    }
    logger.warn('Session refresh failed; requests go on with the current token.', {
      code,
      message: error instanceof Error ? error.message : String(error),
    });
  }

  /** A session for the operations that need one, refreshed first if it has expired. */
  async function requireSession(): Promise<Session> {
    const session = safeLoadSession();
    if (!session) throw new AuthError('NotAuthenticated', 'User is not authenticated');
    if (!refresher.isExpired(session)) return session;
    return refresher.refresh(session);
  }

  function safeLoadSession(): Session | null {
    try {
      return loadSession();
    } catch (error) {
      // An unreadable token is as good as none; drop it so the user is asked to sign in.
      logger.warn('The stored session could not be read and was cleared. Sign in again.');
      clearSession();
      if (error instanceof AuthError) return null;
      throw error;
    }
  }

  function requirePhone(phone: string): string {
    const username = normalizePhone(phone);
    if (!username) {
      throw new AuthError(
        'InvalidParameterException',
        `"${phone}" is not a US phone number: give 10 digits, e.g. (555) 123-4567.`,
      );
    }
    return username;
  }

  function pendingUsername(phone: string | undefined): string {
    if (phone !== undefined) return requirePhone(phone);
    const pending = storage.getItem(pendingKey);
    if (!pending) {
      throw new AuthError(
        'InvalidParameterException',
        'There is no sign-up waiting for a code: give the phone number you signed up with.',
      );
    }
    return pending;
  }

  function authCallbacks(
    user: CognitoUser,
    resolve: (result: SignInResult) => void,
    reject: (error: unknown) => void,
  ): IAuthenticationCallback {
    const unsupported = (name: string) => () =>
      reject(
        new AuthError('UnsupportedChallenge', `Sign-in asks for ${name}, which is not supported.`),
      );
    return {
      onSuccess: () => {
        const session = loadSession();
        if (!session) {
          reject(new AuthError('NotAuthenticated', 'User is not authenticated'));
          return;
        }
        storage.removeItem(pendingKey);
        refresher.cancel();
        refresher.schedule(session);
        resolve({ status: 'signedIn', session });
      },
      onFailure: (error: unknown) => reject(AuthError.fromIdentity(error)),
      mfaRequired: (_name: unknown, parameters: unknown) =>
        resolve({
          status: 'challenge',
          challenge: 'SMS_MFA',
          parameters: (parameters ?? {}) as Record<string, string>,
          answer: (code) =>
            new Promise((res, rej) => user.sendMFACode(code, authCallbacks(user, res, rej))),
        }),
      newPasswordRequired: (_attributes: unknown, required: unknown) =>
        resolve({
          status: 'challenge',
          challenge: 'NEW_PASSWORD_REQUIRED',
          requiredAttributes: Array.isArray(required) ? required.map(String) : [],
          answer: (newPassword, attributes = {}) => {
            if (!newPassword) {
              return Promise.reject(
                new AuthError('InvalidParameterException', 'New password is required.'),
              );
            }
            return new Promise((res, rej) =>
              user.completeNewPasswordChallenge(
                newPassword,
                attributes,
                authCallbacks(user, res, rej),
              ),
            );
          },
        }),
      totpRequired: unsupported('an authenticator-app code'),
      selectMFAType: unsupported('a choice of MFA type'),
      mfaSetup: unsupported('MFA setup'),
      customChallenge: unsupported('a custom challenge'),
    };
  }

  /** Runs a node-style identity-library call as a promise, with its errors as AuthError. */
  function viaLibrary<T>(call: (callback: (error?: unknown, result?: T) => void) => void) {
    return new Promise<T>((resolve, reject) =>
      call((error, result) =>
        error ? reject(AuthError.fromIdentity(error)) : resolve(result as T),
      ),
    );
  }

  return {
    /**
     * `referralCode`: the inviting driver's code (an invitation link's `?ref=`), if any.
     * `marketingConsent`: the language the sign-up box's marketing text was shown in, when the
     * person ticked it (the gateway records it with that text's words and version).
     */
    async signUp(
      phone: string,
      password: string,
      name: string,
      referralCode?: string,
      signUpOptions: { marketingConsent?: 'en' | 'es' } = {},
    ): Promise<SignUpResult> {
      const username = requirePhone(phone);
      const attributes = [
        new CognitoUserAttribute({ Name: 'phone_number', Value: username }),
        new CognitoUserAttribute({ Name: 'name', Value: name }),
      ];
      const referral = normalizeReferralCode(referralCode ?? '');
      if (referral) {
        attributes.push(new CognitoUserAttribute({ Name: REFERRAL_ATTRIBUTE, Value: referral }));
      }
      if (signUpOptions.marketingConsent) {
        attributes.push(
          new CognitoUserAttribute({
            Name: MARKETING_CONSENT_ATTRIBUTE,
            Value: marketingConsentAttribute(signUpOptions.marketingConsent),
          }),
        );
      }
      const result = await viaLibrary<ISignUpResult>((callback) =>
        pool.signUp(username, password, attributes, [], callback),
      );
      if (!result.userConfirmed) storage.setItem(pendingKey, username);
      return {
        username,
        userConfirmed: result.userConfirmed,
        userSub: result.userSub,
        codeDestination: result.codeDeliveryDetails?.Destination,
      };
    },

    /** Confirms the sign-up waiting for a code, or the one for `phone`. */
    async confirmSignUp(code: string, phone?: string): Promise<void> {
      const username = pendingUsername(phone);
      await viaLibrary((callback) => userFor(username).confirmRegistration(code, true, callback));
      storage.removeItem(pendingKey);
    },

    async resendCode(phone?: string): Promise<void> {
      const username = pendingUsername(phone);
      await viaLibrary((callback) => userFor(username).resendConfirmationCode(callback));
    },

    /** SRP by default; `flow: 'password'` sends the password itself (USER_PASSWORD_AUTH). */
    signIn(
      phone: string,
      password: string,
      signInOptions: { flow?: 'srp' | 'password' } = {},
    ): Promise<SignInResult> {
      const username = requirePhone(phone);
      const user = userFor(username);
      user.setAuthenticationFlowType(
        signInOptions.flow === 'password' ? 'USER_PASSWORD_AUTH' : 'USER_SRP_AUTH',
      );
      const details = new AuthenticationDetails({ Username: username, Password: password });
      return new Promise((resolve, reject) =>
        user.authenticateUser(details, authCallbacks(user, resolve, reject)),
      );
    },

    /** Sends a reset code; answers where it went. */
    forgotPassword(phone: string): Promise<{ codeDestination: string | undefined }> {
      const user = userFor(requirePhone(phone));
      return new Promise((resolve, reject) =>
        user.forgotPassword({
          onSuccess: (data: { CodeDeliveryDetails?: { Destination?: string } }) =>
            resolve({ codeDestination: data?.CodeDeliveryDetails?.Destination }),
          onFailure: (error) => reject(AuthError.fromIdentity(error)),
        }),
      );
    },

    confirmForgotPassword(phone: string, code: string, newPassword: string): Promise<void> {
      const user = userFor(requirePhone(phone));
      return new Promise((resolve, reject) =>
        user.confirmPassword(code, newPassword, {
          onSuccess: () => resolve(),
          onFailure: (error) => reject(AuthError.fromIdentity(error)),
        }),
      );
    },

    async changePassword(oldPassword: string, newPassword: string): Promise<void> {
      const session = await requireSession();
      await callIdentity(endpoint, 'ChangePassword', {
        PreviousPassword: oldPassword,
        ProposedPassword: newPassword,
        AccessToken: session.accessToken,
      });
    },

    async updateAttributes(attributes: Record<string, string>): Promise<void> {
      const session = await requireSession();
      await callIdentity(endpoint, 'UpdateUserAttributes', {
        AccessToken: session.accessToken,
        UserAttributes: Object.entries(attributes).map(([Name, Value]) => ({ Name, Value })),
      });
    },

    async getUser(): Promise<UserProfile> {
      const session = await requireSession();
      const data = await callIdentity<{
        Username: string;
        UserAttributes?: Array<{ Name: string; Value: string }>;
      }>(endpoint, 'GetUser', { AccessToken: session.accessToken });
      return {
        username: data.Username,
        attributes: Object.fromEntries((data.UserAttributes ?? []).map((a) => [a.Name, a.Value])),
      };
    },

    async deleteUser(): Promise<void> {
      const session = await requireSession();
      await callIdentity(endpoint, 'DeleteUser', { AccessToken: session.accessToken });
      clearSession(session.username);
    },

    /** Forgets the session here; `global: true` also revokes its tokens everywhere first. */
    async signOut(signOutOptions: { global?: boolean } = {}): Promise<void> {
      if (!signOutOptions.global) {
        clearSession();
        return;
      }
      const session = await requireSession();
      try {
        await callIdentity(endpoint, 'GlobalSignOut', { AccessToken: session.accessToken });
      } finally {
        clearSession(session.username);
      }
    },

    /**
     * The stored session, refreshed first if the id token has expired. Rejects with
     * 'Local storage is missing an ID Token, Please authenticate' when there is none.
     */
    async currentSession(): Promise<Session> {
      const session = safeLoadSession();
      if (!session) {
        throw new AuthError(
          'NoSession',
          'Local storage is missing an ID Token, Please authenticate',
        );
      }
      refresher.schedule(session);
      if (!refresher.isExpired(session)) return session;
      return refresher.refresh(session);
    },

    /**
     * The id token for the Authorization header, or null without a session. An expired token is
     * refreshed first; if that fails for any reason but a refused refresh token, the failure is
     * logged and the old token is answered: the request goes on, and its 401 asks for a sign-in.
     */
    async getIdToken(): Promise<string | null> {
      const session = safeLoadSession();
      if (!session) return null;
      refresher.schedule(session);
      if (!refresher.isExpired(session)) return session.idToken;
      try {
        return (await refresher.refresh(session)).idToken;
      } catch (error) {
        return isNotAuthorized(error) ? null : session.idToken;
      }
    },

    /** Cancels the refresh timer so a CLI exits promptly. */
    dispose(): void {
      refresher.dispose();
    },
  };
}

function isNotAuthorized(error: unknown): boolean {
  return error instanceof AuthError && error.identityCode === 'NotAuthorizedException';
}
