// Validates a request part with its zod schema, answering 400 with the field, what was wrong and
// the value given, except card fields, whose values are never echoed (nor logged).
import type { ZodType } from 'zod';
import { badRequest } from '../http/errors.js';

export function parseInput<T>(schema: ZodType<T>, input: unknown, where: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest(`${where}: is not valid`);
  const path = issue.path.length > 0 ? issue.path.join('.') : where;
  if (issue.path[0] === 'card') throw badRequest(`${path}: ${issue.message}`);
  const value = issue.path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    input,
  );
  const shown = value === undefined ? 'missing' : `got ${JSON.stringify(value)?.slice(0, 60)}`;
  throw badRequest(`${path}: ${issue.message} (${shown})`);
}
