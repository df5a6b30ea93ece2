// What the terminal allows: prompts and Ink only on a real terminal outside CI; colour only when
// NO_COLOR is unset and stdout is a terminal.
export function isInteractive(env = process.env): boolean {
  return Boolean(process.stdout.isTTY && process.stdin.isTTY) && !isCi(env);
}

export function isCi(env = process.env): boolean {
  return Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
}

export function colorEnabled(env = process.env): boolean {
  return Boolean(process.stdout.isTTY) && !('NO_COLOR' in env && env.NO_COLOR !== '');
}

/**
 * Whether tables are drawn for people (bordered, fitted to the width) rather than for programs
 * (tab-separated, nothing cut): on a terminal, or when BLOCKCATCH_FORCE_TTY=1 asks for it (as gh's
 * GH_FORCE_TTY does), e.g. to keep a table's look in a pager.
 */
export function tablesForPeople(env = process.env): boolean {
  return Boolean(process.stdout.isTTY) || env.BLOCKCATCH_FORCE_TTY === '1';
}
