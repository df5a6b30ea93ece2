// `blockcatch health`: the gateway's version id and CDN id, read from the health check's headers.
import { defineCommand } from '../command.js';
import { jsonOnly } from '../flag-sets.js';

export const health = defineCommand({
  name: 'health',
  description: 'cli.help.health',
  flags: jsonOnly,
  examples: ['blockcatch health', 'blockcatch --gateway https://api.example.com health --json'],
  async run(invocation) {
    const [{ printJson }, { say, withContext }] = await Promise.all([
      import('../output/json.js'),
      import('../setup.js'),
    ]);
    await withContext(invocation, async (ctx, { t }) => {
      const answer = await ctx.client.health();
      if (invocation.options.json) printJson({ gateway: ctx.gatewayUrl, ...answer });
      else say(t('cli.health.line', { ...answer, gateway: ctx.gatewayUrl }));
    });
  },
});
