// Keeps a session fresh: one refresh at a time shared by every caller, and a timer that refreshes
// ten minutes before the id token expires, or at once if that moment has passed. Clock and timers
// are injected.

/** Refresh this long before the id token expires. */
export const REFRESH_LEAD_MS = 10 * 60 * 1000;
/** After a refresh, never schedule the next one sooner than this (guards against clock skew). */
export const MIN_REFRESH_INTERVAL_MS = 60 * 1000;
// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending refresh must not keep a CLI process alive.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface TokenRefresherOptions<S extends { expiresAt: number }> {
  now: () => number;
  /** Asks the identity service for new tokens; rejects on failure. */
  refresh: (session: S) => Promise<S>;
  /** A scheduled refresh has no caller to tell; its failure goes here. */
  onBackgroundFailure: (error: unknown) => void;
  timers?: Timers;
}

export interface TokenRefresher<S> {
  /** Whether the id token has expired. */
  isExpired(session: S): boolean;
  /** Refreshes, or joins the refresh already running. */
  refresh(session: S): Promise<S>;
  /** Arms the timer for this session, or refreshes at once if its moment has passed. */
  schedule(session: S): void;
  /** Cancels the timer (sign-out); a later `schedule` arms a new one. */
  cancel(): void;
  /** Cancels the timer for good, so a CLI exits promptly. */
  dispose(): void;
}

export function createTokenRefresher<S extends { expiresAt: number }>(
  options: TokenRefresherOptions<S>,
): TokenRefresher<S> {
  const timers = options.timers ?? realTimers;
  let inFlight: Promise<S> | null = null;
  let timer: unknown = null;
  let scheduledFor: number | null = null;
  let disposed = false;

  function refresh(session: S): Promise<S> {
    if (!inFlight) {
      inFlight = options.refresh(session).then(
        (fresh) => {
          inFlight = null;
          arm(fresh, true);
          return fresh;
        },
        (error: unknown) => {
          inFlight = null;
          throw error;
        },
      );
    }
    return inFlight;
  }

  function cancel(): void {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    scheduledFor = null;
  }

  function background(session: S): void {
    refresh(session).catch(options.onBackgroundFailure);
  }

  function arm(session: S, justRefreshed: boolean): void {
    if (disposed || scheduledFor === session.expiresAt) return;
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    scheduledFor = session.expiresAt;
    let delay = session.expiresAt - REFRESH_LEAD_MS - options.now();
    if (delay <= 0 && !justRefreshed) {
      background(session);
      return;
    }
    // A token that is already due right after a refresh means the clocks disagree: slow down.
    if (justRefreshed) delay = Math.max(delay, MIN_REFRESH_INTERVAL_MS);
    timer = timers.setTimeout(
      () => {
        timer = null;
        background(session);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
  }

  return {
    isExpired: (session) => session.expiresAt <= options.now(),
    refresh,
    schedule: (session) => arm(session, false),
    cancel,
    dispose() {
      disposed = true;
      cancel();
    },
  };
}
