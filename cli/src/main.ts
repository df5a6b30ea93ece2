// Entry point of the `blockcatch` command: parses the command line; errors.ts decides exit codes.
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';

// `blockcatch users export | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version end with code 0; a parse error has already printed its message.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const { reportError } = await import('./errors.js');
    reportError(error, { verbose: process.argv.includes('--verbose') });
  }
}
