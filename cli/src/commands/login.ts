// `blockcatch login`: SRP sign-in with phone and password, prompted on a terminal; without one,
// from --phone / BLOCKCATCH_PHONE and --password-stdin / BLOCKCATCH_PASSWORD.
import type { SignInResult } from '@blockcatch/sdk';
import { defineCommand } from '../command.js';
import { t } from '../i18n.js';

export const login = defineCommand({
  name: 'login',
  description: 'cli.help.login',
  flags: (c) =>
    c
      .option('--phone <number>', t('cli.help.phone'))
      .option('--password-stdin', t('cli.help.passwordStdin')),
  examples: [
    'blockcatch login',
    'blockcatch --profile work login --phone 3055550100 --password-stdin < password.txt',
    'BLOCKCATCH_PHONE=3055550100 BLOCKCATCH_PASSWORD=… blockcatch login',
  ],
  async run(invocation) {
    const [
      { CommandFailure, UsageError },
      { ask, readStdin },
      { commandLine },
      { isInteractive },
      { say, withContext },
    ] = await Promise.all([
      import('../errors.js'),
      import('../prompt.js'),
      import('../self-command.js'),
      import('../terminal.js'),
      import('../setup.js'),
    ]);
    const { options } = invocation;
    const env = process.env;
    const interactive = isInteractive();
    await withContext(invocation, async (ctx, { t }) => {
      let phone = options.phone ?? env.BLOCKCATCH_PHONE;
      if (!phone && interactive) phone = await ask(t('cli.login.phonePrompt'));
      if (!phone) {
        throw new UsageError(t('cli.errors.noPhone'));
      }
      let password: string | undefined;
      if (options.passwordStdin) password = await readStdin();
      else password = env.BLOCKCATCH_PASSWORD;
      if (!password && interactive)
        password = await ask(t('cli.login.passwordPrompt'), { secret: true });
      if (!password) {
        throw new UsageError(t('cli.errors.noPassword'));
      }
      let result: SignInResult = await ctx.auth.signIn(phone, password);
      while (result.status === 'challenge') {
        if (!interactive) {
          throw new CommandFailure(
            t(
              result.challenge === 'SMS_MFA'
                ? 'cli.errors.challengeCode'
                : 'cli.errors.challengePassword',
              { login: commandLine('login') },
            ),
          );
        }
        result =
          result.challenge === 'SMS_MFA'
            ? await result.answer(await ask(t('cli.login.codePrompt')))
            : await result.answer(await ask(t('cli.login.newPasswordPrompt'), { secret: true }));
      }
      say(t('cli.auth.signedIn', { name: result.session.name ?? result.session.username }));
    });
  },
});
