// The JSON body parser every route shares, and the text check for query strings and paths. It
// refuses, with a 400 naming the field, what must never reach a handler or the database: nesting
// deeper than MAX_DEPTH (checked on the raw text, before JSON.parse or a schema walks it), NUL
// characters and unpaired surrogates (PostgreSQL refuses them in text columns, and the JSON
// encoder would answer them later with a 500), and `__proto__` keys.
import type { FastifyInstance } from 'fastify';
import { type ApiError, fieldPath, invalid } from './errors.js';

/** Deeper than any body the API takes (a WhatsApp template is 4 levels). */
const MAX_DEPTH = 32;

export function installJsonBodyParser(app: FastifyInstance): void {
  // Replaces Fastify's default JSON parser, app-wide; the Stripe webhook's scope swaps in its own.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw invalid(
      undefined,
      'body: Content-Type is application/json but the body is empty; send a JSON object.',
    );
  }
  if (exceedsDepth(text, MAX_DEPTH)) {
    throw invalid(undefined, `body: nesting is deeper than ${MAX_DEPTH} levels.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(undefined, 'body: is not valid JSON.');
  }
  // Only an escape (\u…), a raw NUL or surrogate, or the word __proto__ in the text can put what
  // the walk looks for into the value: most bodies, e.g. a long list of numbers, skip it.
  if (MAYBE_FORBIDDEN.test(text) || text.includes('__proto__')) {
    const bad = findForbiddenText(value, []);
    if (bad) throw bad;
  }
  return value;
}

const MAYBE_FORBIDDEN = /\\u|[\0\uD800-\uDFFF]/;

/** Whether the JSON text opens more than `limit` arrays or objects inside one another. */
function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The first string (value or key) in `value` that holds a NUL or an unpaired surrogate, or a
 * `__proto__` key, as a 400 naming where it is. `value` is already depth-limited.
 */
function findForbiddenText(value: unknown, path: string[]): ApiError | null {
  return walk(value, [...path]);
}

/** One path array, pushed and popped: a 100,000-recipient body is walked without a copy per item. */
function walk(value: unknown, path: (string | number)[]): ApiError | null {
  if (typeof value === 'string') return textProblem(value, path);
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      if (item === null || (typeof item !== 'string' && typeof item !== 'object')) continue;
      path.push(index);
      const bad = walk(item, path);
      path.pop();
      if (bad) return bad;
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key === '__proto__') {
      return invalid(fieldPath([...path, key]), 'is not an accepted field name; remove it');
    }
    const keyProblem = textProblem(key, path);
    if (keyProblem) return keyProblem;
    path.push(key);
    const bad = walk((value as Record<string, unknown>)[key], path);
    path.pop();
    if (bad) return bad;
  }
  return null;
}

/**
 * Whether every surrogate in `text` has its pair: native and one pass, so a field's text is checked
 * before its schema bounds it without a pattern reading it. (Node 20 has the method; TypeScript's
 * ES2023 library does not declare it.)
 */
const isWellFormed = (text: string) =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

function textProblem(text: string, path: readonly (string | number)[]): ApiError | null {
  const field = () => (path.length > 0 ? fieldPath(path) : undefined);
  if (text.includes('\0')) {
    return invalid(field(), 'contains a NUL character (\\u0000); remove it');
  }
  if (!isWellFormed(text)) {
    return invalid(field(), 'contains an unpaired UTF-16 surrogate; send well-formed Unicode text');
  }
  return null;
}

/** The same refusal for query strings and path parameters, which skip the body parser. */
export function installUrlTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const bad =
      findForbiddenText(request.params ?? {}, []) ?? findForbiddenText(request.query ?? {}, []);
    done(bad ?? undefined);
  });
}
