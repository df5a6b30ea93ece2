// Watches every regular expression the process runs (test, match, replace, split and search all go
// through RegExp.prototype.exec), so a test can tell whether a pattern read a value longer than the
// field's bound: a bound checked after the pattern protects nothing.
export interface RegexSpy {
  /** The patterns that read one of the watched values, with the value's length. */
  readonly reads: { pattern: string; length: number }[];
  restore(): void;
}

/** Records every pattern that runs on a string holding `value` (a raw JSON body aside). */
export function spyOnRegexReads(values: readonly string[]): RegexSpy {
  const exec = RegExp.prototype.exec;
  const reads: { pattern: string; length: number }[] = [];
  const shortest = Math.min(...values.map((v) => v.length));
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    if (
      typeof input === 'string' &&
      input.length >= shortest &&
      // The body parser's own scan of the raw JSON text runs before any field is known.
      !isJsonText(input) &&
      values.some((v) => input.includes(v)) &&
      !isExempt(new Error().stack ?? '')
    ) {
      reads.push({ pattern: String(this), length: input.length });
    }
    return exec.call(this, input);
  };
  return {
    reads,
    restore: () => {
      RegExp.prototype.exec = exec;
    },
  };
}

/**
 * Reads that are not the gateway's: the test's own HTTP clients (undici and node:http check the
 * request's path and headers), and zod's length check itself (it probes for surrogate pairs, to
 * count code points).
 */
function isExempt(stack: string): boolean {
  return (
    stack.includes('undici') ||
    stack.includes('node:_http_client') ||
    stack.includes('node:_http_outgoing') ||
    stack.includes('codePointLength')
  );
}

/** Whether `text` opens a JSON object or array (no pattern here: this runs inside exec). */
function isJsonText(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}
