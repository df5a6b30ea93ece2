// What the gateway needs from a delivery platform. The sandbox implements it in-process over the
// database; a real platform would be an HTTP client behind the same interface.
import type { Offer } from '@blockcatch/sdk';

export interface ServiceArea {
  id: string;
  name: string;
  timeZone: string;
}

/** What verifying the one-time code yields: kept encrypted, handed back on every call. */
export interface PlatformSession {
  accountId: string;
  accessToken: string;
  /** Trades for a new session once the access token expires (sessions sealed before had none). */
  refreshToken?: string;
  /** When the access token stops working (epoch ms). */
  expiresAt?: number;
}

export type AcceptOutcome = 'won' | 'gone';

/** An offer as the platform lists it; `publishedAt` (epoch ms) when the platform tells (the sandbox does). */
export type PlatformOffer = Offer & { publishedAt?: number };

export interface DeliveryPlatform {
  readonly name: string;
  listServiceAreas(): Promise<ServiceArea[]>;
  /** Checks email and password and sends a one-time code to the driver's phone. */
  signIn(input: { email: string; password: string; phoneNumber: string }): Promise<{
    challengeId: string;
  }>;
  verifyOtp(input: { challengeId: string; code: string }): Promise<PlatformSession>;
  /** The offers open to this account now. Throws PlatformError 'throttled' when polled too fast. */
  listOffers(session: PlatformSession): Promise<PlatformOffer[]>;
  /**
   * A new session for an expired one. Throws 'code-required' when the platform wants the driver
   * to sign in with a new one-time code, 'unauthorized' when it refuses the refresh token.
   */
  refreshSession(session: PlatformSession): Promise<PlatformSession>;
  /**
   * Whether the platform still asks this account to complete a check in the platform's own app
   * (a captcha, an identity check) before it lists offers again; listOffers throws
   * 'verification-required' meanwhile. Only the driver can complete it, never the catcher.
   */
  verificationPending(session: PlatformSession): Promise<boolean>;
  /** 'gone' when another driver took the offer first. */
  acceptOffer(session: PlatformSession, offerId: string): Promise<AcceptOutcome>;
  /** Checks the driver in for their block under way or next to start, if any. */
  arrive(session: PlatformSession): Promise<{ offerId: string | null }>;
  /**
   * Sandbox only: calls `listener` when new offers were published, so in-process pollers can poll
   * at once instead of on their next tick. A real platform gives no such signal.
   */
  onNewOffers?(listener: () => void): () => void;
  start(): void;
  stop(): Promise<void>;
}

export type PlatformErrorKind =
  | 'invalid-credentials'
  | 'invalid-code'
  | 'expired-code'
  | 'unauthorized'
  | 'session-expired'
  | 'code-required'
  | 'verification-required'
  | 'throttled'
  | 'unavailable';

/** A platform failure with a stable kind; `retryAfterMs` is set on 'throttled' (Retry-After). */
export class PlatformError extends Error {
  override name = 'PlatformError';
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
