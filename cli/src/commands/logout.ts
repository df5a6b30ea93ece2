// `blockcatch logout [--global]`: forgets this profile's session; --global ends it everywhere.
import { defineCommand } from '../command.js';
import { t } from '../i18n.js';

export const logout = defineCommand({
  name: 'logout',
  description: 'cli.help.logout',
  flags: (c) => c.option('--global', t('cli.help.logoutGlobal')),
  examples: ['blockcatch logout', 'blockcatch logout --global'],
  async run(invocation) {
    const { say, withContext } = await import('../setup.js');
    await withContext(invocation, async (ctx, { t }) => {
      await ctx.auth.signOut({ global: invocation.options.global === true });
      say(t('cli.auth.signedOut'));
    });
  },
});
