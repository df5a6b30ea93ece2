// Entry point of the `blockcatch` command: picks the language, parses the command line; errors.ts
// decides exit codes and words every failure, commander's own included.
import { CommanderError } from '@commander-js/extra-typings';
import { chooseLanguage, languageOf } from './i18n.js';
import { buildProgram } from './program.js';

// `blockcatch users export | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const t = chooseLanguage(languageOf(process.argv.slice(2)));

// Ctrl-C anywhere exits 130, as shells expect. A command that stops cleanly on it (a send, which
// then says how to resume) listens itself, and this handler steps aside.
process.on('SIGINT', () => {
  if (process.listenerCount('SIGINT') > 1) return;
  process.stderr.write(`blockcatch: ${t('cli.errors.interruptedPlain')}\n`);
  process.exit(130);
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Help and the version are printed and done: nothing to report, and nothing more to load, so
  // `--help` reads only commander and the texts.
  if (
    error instanceof CommanderError &&
    (error.exitCode === 0 || error.code === 'commander.version')
  ) {
    process.exitCode = 0;
  } else {
    const { reportCommanderError, reportError } = await import('./errors.js');
    if (error instanceof CommanderError) reportCommanderError(error);
    else reportError(error, { verbose: process.argv.includes('--verbose') });
  }
}
