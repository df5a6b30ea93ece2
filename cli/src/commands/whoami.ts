// `blockcatch whoami`: who this profile is signed in as, as the gateway sees them.
import { defineCommand } from '../command.js';
import { jsonOnly } from '../flag-sets.js';

export const whoami = defineCommand({
  name: 'whoami',
  description: 'cli.help.whoami',
  flags: jsonOnly,
  examples: ['blockcatch whoami', 'blockcatch --profile work whoami --json'],
  async run(invocation) {
    const [{ formatPhone }, { printJson }, { say, withContext }] = await Promise.all([
      import('@blockcatch/sdk'),
      import('../output/json.js'),
      import('../setup.js'),
    ]);
    await withContext(invocation, async (ctx, { t }) => {
      if (ctx.credential === 'session') await ctx.auth.currentSession();
      const me = await ctx.client.me();
      if (invocation.options.json) {
        printJson({ profile: ctx.profile, gateway: ctx.gatewayUrl, user: me });
        return;
      }
      say(
        t('cli.whoami.line', {
          name: me.name,
          phone: formatPhone(me.phoneNumber) || me.phoneNumber,
          role: me.role?.role ?? t('common.none'),
          admin: me.isAdmin ? t('common.yes') : t('common.no'),
          profile: ctx.profile,
        }),
      );
    });
  },
});
