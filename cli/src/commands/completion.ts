// `blockcatch completion bash|zsh|fish`: prints the shell's completion script.
import { defineCommand } from '../command.js';
import { t } from '../i18n.js';

export const completion = defineCommand({
  name: 'completion',
  description: 'cli.help.completion',
  flags: (c) => c.argument('<shell>', t('cli.help.completionShell')),
  examples: [
    'eval "$(blockcatch completion bash)"   # in ~/.bashrc',
    'blockcatch completion fish > ~/.config/fish/completions/blockcatch.fish',
  ],
  async run(invocation) {
    const [{ z }, { flag }, { completionScript }, { say }] = await Promise.all([
      import('zod'),
      import('../flags.js'),
      import('../completion-script.js'),
      import('../setup.js'),
    ]);
    const shell = flag(
      '<shell>',
      z.enum(['bash', 'zsh', 'fish']),
      invocation.args[0],
      t('cli.errors.shellFix'),
    );
    say(completionScript(shell, invocation.program));
  },
});
