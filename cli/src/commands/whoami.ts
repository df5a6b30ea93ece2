// `blockcatch whoami`: who this profile is signed in as, as the gateway sees them.
import { formatPhone } from '@blockcatch/sdk';
import { printJson } from '../output/json.js';
import type { Invocation } from '../program.js';
import { say, withContext } from './setup.js';

export async function runWhoami(invocation: Invocation<{ json?: true }>): Promise<void> {
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
}
