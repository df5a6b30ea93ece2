// The one place that turns a failure into an exit code and a one-line message on stderr: 0 ok,
// 1 failure, 2 usage error. Each line says what to do next; `--verbose` adds the cause chain and
// never a token.
import {
  AuthError,
  BlockCatchError,
  ConfigError,
  ForbiddenError,
  HttpError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  UnauthenticatedError,
} from '@blockcatch/sdk';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A flag or argument the command cannot work with: exit 2, naming the flag, the value and the fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the command already explained in its own words: exit 1 with this line. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** Exit 2 for `flag`: `--audience: "foo" is not valid; use flex, spark or invitees.` */
export function badFlag(flag: string, value: unknown, fix: string): UsageError {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : String(value);
  return new UsageError(`${flag}: ${shown} is not valid; ${fix}`);
}

export interface Reported {
  exitCode: number;
  /** One line, no trailing newline. */
  message: string;
  /** Extra lines for `--verbose`. */
  detail: string[];
}

export interface ReportContext {
  gatewayUrl?: string;
}

/** What a failure means for the person at the terminal. */
export function describeError(error: unknown, ctx: ReportContext = {}): Reported {
  const detail = causeChain(error);
  const done = (exitCode: number, message: string): Reported => ({ exitCode, message, detail });
  const commanderCode = (error as { code?: unknown })?.code;
  if (error instanceof UsageError) return done(EXIT_USAGE, error.message);
  if (typeof commanderCode === 'string' && commanderCode.startsWith('commander.')) {
    return done(EXIT_USAGE, `${(error as Error).message.replace(/^error: /, '')} (see --help)`);
  }
  if (error instanceof CommandFailure) return done(EXIT_FAILURE, error.message);
  if (error instanceof UnauthenticatedError) {
    return done(EXIT_FAILURE, 'Your session has ended: sign in again with `blockcatch login`.');
  }
  if (error instanceof ForbiddenError) {
    return done(
      EXIT_FAILURE,
      `Not allowed: ${error.serverMessage ?? error.message} Sign in with an account that has the permission.`,
    );
  }
  if (error instanceof HttpError) {
    const server = error.serverMessage ? `: ${error.serverMessage}` : '';
    const next =
      error.status >= 500
        ? ' The gateway failed; try again, or check its logs.'
        : ' Check the flags.';
    return done(EXIT_FAILURE, `${error.message}${server}.${next}`);
  }
  if (error instanceof AuthError) {
    if (['NotAuthenticated', 'NoSession', 'NoRefreshToken'].includes(error.identityCode)) {
      return done(EXIT_FAILURE, 'You are not signed in. Run `blockcatch login` first.');
    }
    if (error.identityCode === 'NotAuthorizedException') {
      return done(
        EXIT_FAILURE,
        'Phone number or password incorrect. Try `blockcatch login` again.',
      );
    }
    if (error.identityCode === 'InvalidParameterException') {
      return done(EXIT_USAGE, error.message);
    }
    return done(EXIT_FAILURE, `${error.message} (${error.identityCode}).`);
  }
  if (error instanceof NetworkError || error instanceof TimeoutError) {
    const where = ctx.gatewayUrl ?? 'the gateway';
    return done(
      EXIT_FAILURE,
      `Cannot reach ${where}: start the sandbox (npm start) or pass --gateway URL / BLOCKCATCH_GATEWAY_URL.`,
    );
  }
  if (error instanceof ResponseShapeError) {
    return done(
      EXIT_FAILURE,
      `${error.message}. Is --gateway pointing at a BlockCatch gateway of this version?`,
    );
  }
  if (error instanceof ConfigError) return done(EXIT_USAGE, error.message);
  if (error instanceof BlockCatchError) return done(EXIT_FAILURE, error.message);
  const message = error instanceof Error ? error.message : String(error);
  return done(EXIT_FAILURE, `Unexpected failure: ${message}. Run again with --verbose for detail.`);
}

/** Writes the report to stderr and sets the exit code; the process ends on its own. */
export function reportError(
  error: unknown,
  options: ReportContext & { verbose?: boolean },
): number {
  const report = describeError(error, options);
  process.stderr.write(`blockcatch: ${redact(report.message)}\n`);
  if (options.verbose) {
    for (const line of report.detail) process.stderr.write(`  ${redact(line)}\n`);
  }
  process.exitCode = report.exitCode;
  return report.exitCode;
}

function causeChain(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      lines.push(
        `${current.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${current.message}`,
      );
      if (current instanceof HttpError) {
        lines.push(`status ${current.status}, server code ${current.serverCode ?? '-'}`);
      }
      if (depth === 0 && current.stack) {
        lines.push(
          ...current.stack
            .split('\n')
            .slice(1, 6)
            .map((l) => l.trim()),
        );
      }
      current = current.cause;
    } else {
      lines.push(String(current));
      break;
    }
  }
  return lines;
}

/** Anything shaped like a JWT or a long opaque token is cut out before it reaches a terminal. */
export function redact(text: string): string {
  return text
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[token]')
    .replace(/\b[A-Za-z0-9_-]{80,}\b/g, '[token]');
}
