// `blockcatch sends list|show|cancel`: the send jobs as the gateway keeps them, one followed until
// every recipient has an outcome, and a queued one cancelled (jobs.ts does the work).
import { defineCommand, defineGroup } from '../../command.js';
import { t } from '../../i18n.js';
import { sendsListFlags, sendsShowFlags } from './flags.js';

export const sends = defineGroup({
  name: 'sends',
  description: 'cli.help.sends',
  commands: [
    defineCommand({
      name: 'list',
      description: 'cli.help.sendsList',
      flags: sendsListFlags,
      examples: [
        'blockcatch sends list',
        'blockcatch sends list --limit 5 --json',
        'blockcatch sends list --key nightly-renewals',
      ],
      run: async (invocation) => (await import('./jobs.js')).runSendsList(invocation),
    }),
    defineCommand({
      name: 'show',
      description: 'cli.help.sendsShow',
      flags: sendsShowFlags,
      examples: [
        'blockcatch sends show 3f2a --wait --timeout 10m',
        'blockcatch sends show 3f2a --csv > report.csv',
      ],
      run: async (invocation) => (await import('./jobs.js')).runSendsShow(invocation),
    }),
    defineCommand({
      name: 'cancel',
      description: 'cli.help.sendsCancel',
      flags: (c) => c.argument('<id>', t('cli.help.sendsId')),
      examples: ['blockcatch sends cancel 3f2a'],
      run: async (invocation) => (await import('./jobs.js')).runSendsCancel(invocation),
    }),
  ],
});
