// The one way a test waits for an asynchronous outcome: retry the assertion until it passes or the
// timeout runs out, then fail with the assertion's own last error. Never a fixed sleep followed by
// an assertion: on a loaded machine a sleep is either too short (flaky) or too long (slow).
export interface EventuallyOptions {
  /** How long the outcome may take, in ms. Generous by default: a busy CI machine is slow. */
  timeout?: number;
  /** Pause between tries, in ms. */
  interval?: number;
}

export async function eventually<T>(
  assertion: () => T | Promise<T>,
  { timeout = 20_000, interval = 20 }: EventuallyOptions = {},
): Promise<T> {
  const deadline = performance.now() + timeout;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (performance.now() >= deadline) throw error;
      await new Promise<void>((next) => setTimeout(next, interval));
    }
  }
}
