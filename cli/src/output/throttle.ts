// Progress without a terminal to redraw: a log or a CI job wants a line every few seconds, not one
// per batch or chunk. The clock is passed in so tests step it instead of waiting.

/** How often a progress line may be written when nothing redraws it. */
export const PROGRESS_EVERY_MS = 3000;

/** Writes `line()` if `everyMs` have passed since the last line (or the start); `force` always writes. */
export type Throttle = (line: () => string, force?: boolean) => void;

export function throttledLines(
  write: (line: string) => void,
  options: { everyMs?: number; now?: () => number } = {},
): Throttle {
  const everyMs = options.everyMs ?? PROGRESS_EVERY_MS;
  const now = options.now ?? Date.now;
  let last = now();
  return (line, force = false) => {
    const at = now();
    if (!force && at - last < everyMs) return;
    last = at;
    write(line());
  };
}
