// `blockcatch health`: the gateway's version id and CDN id, read from the health check's headers.
import { printJson } from '../output/json.js';
import type { Invocation } from '../program.js';
import { say, withContext } from './setup.js';

export async function runHealth(invocation: Invocation<{ json?: true }>): Promise<void> {
  await withContext(invocation, async (ctx, { t }) => {
    const health = await ctx.client.health();
    if (invocation.options.json) printJson({ gateway: ctx.gatewayUrl, ...health });
    else say(t('cli.health.line', { ...health, gateway: ctx.gatewayUrl }));
  });
}
