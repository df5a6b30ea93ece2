// Validates a request part by hand, for the few inputs a route schema cannot express (a body that
// is one of two shapes): the same 400 as a route schema's, naming the field, never the value.
import type { ZodType } from 'zod';
import { fromZodError } from './errors.js';

export function parseInput<T>(schema: ZodType<T>, input: unknown, part: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw fromZodError(result.error, part);
}
