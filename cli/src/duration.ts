// Durations as flags take them (`--timeout 10m`, `--expires 90d`): a whole number and one unit,
// bounded before anything is parsed, so a typo is a usage error naming the flag.
import { z } from 'zod';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `10m`, `2h`, `90d` as milliseconds, between `min` and `max` (inclusive). */
export function durationSchema(min: number, max: number) {
  return z
    .string()
    .max(12)
    .regex(/^\d{1,7}[smhd]$/)
    .transform((text) => Number(text.slice(0, -1)) * UNIT_MS[text.at(-1) as keyof typeof UNIT_MS])
    .refine((ms) => ms >= min && ms <= max);
}

/** Milliseconds as a flag would give them: the largest whole unit (`10m`, `2h`, `90s`). */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}
