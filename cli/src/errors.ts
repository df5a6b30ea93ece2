// The one place that turns a failure into an exit code and a one-line message on stderr: 0 ok,
// 1 failure, 2 usage error, 130 interrupted. Each line says what to do next; `--verbose` adds the cause chain and
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
import { t } from './i18n.js';
import { commandLine } from './self-command.js';

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** Ctrl-C, as shells report a process ended by SIGINT. */
export const EXIT_INTERRUPTED = 130;

/** A flag or argument the command cannot work with: exit 2, naming the flag, the value and the fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the command already explained in its own words: exit 1 with this line. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** Ctrl-C stopped the command: exit 130 with this line, which says how to resume. */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

/** Exit 2 for `flag`: `--audience: "foo" is not valid; use flex, spark or invitees.` */
export function badFlag(flag: string, value: unknown, fix: string): UsageError {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : String(value);
  return new UsageError(t('cli.errors.badFlag', { flag, value: shown, fix }));
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
    return done(EXIT_USAGE, commanderMessage(commanderCode, (error as Error).message));
  }
  if (error instanceof CommandFailure) return done(EXIT_FAILURE, error.message);
  if (error instanceof Interrupted) return done(EXIT_INTERRUPTED, error.message);
  // The key names a job with other content: the command line must change, like any usage error.
  if (error instanceof HttpError && error.serverCode === 'idempotency_key_reused') {
    return done(
      EXIT_USAGE,
      `${error.serverMessage ?? error.message} ${t('cli.errors.keyReusedFix')}`,
    );
  }
  if (error instanceof UnauthenticatedError) {
    return done(EXIT_FAILURE, t('cli.errors.sessionEnded', { login: commandLine('login') }));
  }
  if (error instanceof ForbiddenError) {
    return done(
      EXIT_FAILURE,
      t('cli.errors.forbidden', { reason: error.serverMessage ?? error.message }),
    );
  }
  if (error instanceof HttpError) {
    const server = error.serverMessage ? `: ${error.serverMessage}` : '';
    const next = t(error.status >= 500 ? 'cli.errors.gatewayFailed' : 'cli.errors.checkFlags');
    return done(EXIT_FAILURE, `${error.message}${server}. ${next}`);
  }
  if (error instanceof AuthError) {
    if (['NotAuthenticated', 'NoSession', 'NoRefreshToken'].includes(error.identityCode)) {
      return done(EXIT_FAILURE, t('cli.auth.notSignedIn', { login: commandLine('login') }));
    }
    if (error.identityCode === 'NotAuthorizedException') {
      return done(EXIT_FAILURE, t('cli.errors.badPassword', { login: commandLine('login') }));
    }
    if (error.identityCode === 'InvalidParameterException') {
      return done(EXIT_USAGE, error.message);
    }
    return done(EXIT_FAILURE, `${error.message} (${error.identityCode}).`);
  }
  if (error instanceof NetworkError || error instanceof TimeoutError) {
    return done(
      EXIT_FAILURE,
      t('cli.errors.unreachable', { where: ctx.gatewayUrl ?? t('cli.errors.theGateway') }),
    );
  }
  if (error instanceof ResponseShapeError) {
    return done(EXIT_FAILURE, `${error.message}. ${t('cli.errors.wrongGateway')}`);
  }
  if (error instanceof ConfigError) return done(EXIT_USAGE, error.message);
  if (error instanceof BlockCatchError) return done(EXIT_FAILURE, error.message);
  const message = error instanceof Error ? error.message : String(error);
  return done(EXIT_FAILURE, t('cli.errors.unexpected', { message }));
}

const SUGGESTION = '(Did you mean ';

/**
 * Commander's message without the "(Did you mean …?)" that may end it, and that suggestion. Found
 * with lastIndexOf: a pattern for it (`\(Did you mean (.+)\?\)\s*$`) retries from every
 * "(Did you mean" in the text, quadratic in a long argument that repeats it.
 */
function splitSuggestion(message: string): { text: string; suggestion?: string } {
  const trimmed = message.trimEnd();
  const start = trimmed.lastIndexOf(SUGGESTION);
  if (start < 0 || !trimmed.endsWith('?)')) return { text: message };
  let suggestion = trimmed.slice(start + SUGGESTION.length, -2);
  if (suggestion.startsWith('one of ')) suggestion = suggestion.slice('one of '.length);
  if (suggestion === '' || suggestion.includes('\n')) return { text: message };
  const before = trimmed.slice(0, start);
  return { text: before.endsWith('\n') ? before.slice(0, -1) : before, suggestion };
}

/** Commander's error as one line in the run's language, with its "did you mean" kept. */
export function commanderMessage(code: string, message: string): string {
  const split = splitSuggestion(message);
  const suggestion = split.suggestion;
  const text = split.text.replace(/^error: /, '');
  const quoted = /'([^']+)'/.exec(text)?.[1] ?? '';
  const counts = /Expected (\d+) arguments? but got (\d+)/.exec(text);
  const known: Record<string, string> = {
    'commander.unknownOption': t('cli.commander.unknownOption', { name: quoted }),
    'commander.unknownCommand': t('cli.commander.unknownCommand', { name: quoted }),
    'commander.missingArgument': t('cli.commander.missingArgument', { name: quoted }),
    'commander.optionMissingArgument': t('cli.commander.optionMissingArgument', { name: quoted }),
    'commander.missingMandatoryOptionValue': t('cli.commander.missingMandatoryOptionValue', {
      name: quoted,
    }),
    'commander.excessArguments': t('cli.commander.excessArguments', {
      expected: counts?.[1] ?? '?',
      got: counts?.[2] ?? '?',
    }),
  };
  const said = known[code] ?? text;
  const hint = suggestion
    ? t('cli.commander.didYouMean', { suggestion })
    : t('cli.commander.seeHelp');
  return `${said}; ${hint}`;
}

/** Help and version end with 0; anything else commander refuses is a usage error on one line. */
/** A commander error other than help or the version shown (main.ts ends those itself). */
export function reportCommanderError(error: { code: string; exitCode: number; message: string }) {
  // A group run without its subcommand: commander has printed the group's help.
  if (error.code !== 'commander.help') {
    process.stderr.write(`blockcatch: ${commanderMessage(error.code, error.message)}\n`);
  }
  process.exitCode = EXIT_USAGE;
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
  // Each run of token characters is judged as a whole, by string operations: patterns such as
  // /eyJ[\w-]+\.[\w-]+\.[\w-]+/ retry from every "eyJ" inside a run, quadratic in its length.
  return text.replace(/[\w.-]+/g, redactRun);
}

const LONG_TOKEN = 80;

function redactRun(run: string): string {
  // A machine token (bct_…) up to the next dot.
  const machine = run.indexOf('bct_');
  if (machine >= 0) {
    const end = run.indexOf('.', machine);
    return `${run.slice(0, machine)}[token]${end < 0 ? '' : redactRun(run.slice(end))}`;
  }
  const jwt = run.indexOf('eyJ');
  if (jwt >= 0) {
    const parts = run.slice(jwt).split('.');
    if (parts.length >= 3 && parts[0]!.length > 3 && parts[1] !== '' && parts[2] !== '') {
      return [`${run.slice(0, jwt)}[token]`, ...parts.slice(3)].join('.');
    }
  }
  return run
    .split('.')
    .map((part) => (part.length >= LONG_TOKEN ? '[token]' : part))
    .join('.');
}
