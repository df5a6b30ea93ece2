// How this run of the CLI was typed, so that every hint ("run `npx blockcatch login`") is a command
// that works as typed in the same shell: through npx, as `blockcatch` on the PATH (npm link or a
// global install), or as `node path/to/main.js`.
import { basename, isAbsolute, relative, resolve } from 'node:path';

export function selfCommand(
  env: NodeJS.ProcessEnv = process.env,
  script: string | undefined = process.argv[1],
  cwd = process.cwd(),
): string {
  if (env.npm_command === 'exec' || env.npm_lifecycle_event === 'npx') return 'npx blockcatch';
  if (!script || basename(script) === 'blockcatch') return 'blockcatch';
  const shown = relative(cwd, script);
  return `node ${shown.startsWith('..') || isAbsolute(shown) ? script : shown}`;
}

/** `blockcatch login` as this run was typed: `npx blockcatch login`. */
export function commandLine(rest: string): string {
  return `${selfCommand()} ${rest}`;
}

/**
 * This command as cron runs it, with no PATH to rely on: the installed `blockcatch` by its absolute
 * path, or node and the script, both absolute.
 */
export function absoluteCommand(
  script: string | undefined = process.argv[1],
  node: string = process.execPath,
): string {
  if (!script) return '/usr/local/bin/blockcatch';
  const path = resolve(script);
  return basename(path) === 'blockcatch' ? path : `${node} ${path}`;
}

/** A crontab line that works pasted as it is: an absolute command, and `%` escaped as cron needs. */
export function cronExample(command = absoluteCommand()): string {
  return `0 9 * * * ${command} send sms --audience flex --expires-to $(date +\\%F) --message "Renew today" --yes >> $HOME/blockcatch.log 2>&1`;
}
