// `blockcatch logout [--global]`: forgets this profile's session; --global ends it everywhere.
import type { Invocation } from '../program.js';
import { say, withContext } from './setup.js';

export async function runLogout(invocation: Invocation<{ global?: true }>): Promise<void> {
  await withContext(invocation, async (ctx, { t }) => {
    await ctx.auth.signOut({ global: invocation.options.global === true });
    say(t('cli.auth.signedOut'));
  });
}
