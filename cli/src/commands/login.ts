// `blockcatch login`: SRP sign-in with phone and password, prompted on a terminal; without one,
// from --phone / BLOCKCATCH_PHONE and --password-stdin / BLOCKCATCH_PASSWORD.
import type { SignInResult } from '@blockcatch/sdk';
import { CommandFailure, UsageError } from '../errors.js';
import type { Invocation } from '../program.js';
import { ask, readStdin } from '../prompt.js';
import { isInteractive } from '../terminal.js';
import { say, withContext } from './setup.js';

export interface LoginOptions {
  phone?: string;
  passwordStdin?: true;
}

export async function runLogin(invocation: Invocation<LoginOptions>): Promise<void> {
  const { options } = invocation;
  const env = process.env;
  const interactive = isInteractive();
  await withContext(invocation, async (ctx, { t }) => {
    let phone = options.phone ?? env.BLOCKCATCH_PHONE;
    if (!phone && interactive) phone = await ask(t('cli.login.phonePrompt'));
    if (!phone) {
      throw new UsageError(
        'No phone number: pass --phone NUMBER or set BLOCKCATCH_PHONE (there is no terminal to ask on).',
      );
    }
    let password: string | undefined;
    if (options.passwordStdin) password = await readStdin();
    else password = env.BLOCKCATCH_PASSWORD;
    if (!password && interactive)
      password = await ask(t('cli.login.passwordPrompt'), { secret: true });
    if (!password) {
      throw new UsageError(
        'No password: pipe it with --password-stdin or set BLOCKCATCH_PASSWORD (there is no terminal to ask on).',
      );
    }
    let result: SignInResult = await ctx.auth.signIn(phone, password);
    while (result.status === 'challenge') {
      if (!interactive) {
        throw new CommandFailure(
          `Sign-in asks for ${result.challenge === 'SMS_MFA' ? 'an SMS code' : 'a new password'}: run blockcatch login on a terminal.`,
        );
      }
      result =
        result.challenge === 'SMS_MFA'
          ? await result.answer(await ask(t('cli.login.codePrompt')))
          : await result.answer(await ask(t('cli.login.newPasswordPrompt'), { secret: true }));
    }
    say(t('cli.auth.signedIn', { name: result.session.name ?? result.session.username }));
  });
}
