// Entry point of the `blockcatch` command.
import { Command } from 'commander';

const program = new Command()
  .name('blockcatch')
  .description('Catch delivery blocks and message drivers in bulk from a terminal.')
  .version('0.1.0');

program.addHelpText(
  'after',
  `
The sandbox gateway and the commands that talk to it (login, users, send, …) are being built;
today this command shows its help and version.`,
);

await program.parseAsync(process.argv);
