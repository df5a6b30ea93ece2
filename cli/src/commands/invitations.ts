// `blockcatch invitations list|export [filters]`: invitees as the notifications screen builds them,
// as a table page, or streamed as CSV or JSON from the gateway's export.
import { defineCommand, defineGroup, type Invocation } from '../command.js';
import {
  type InviteeFlags,
  type ListOutputFlags,
  type TableOutputFlags,
  withInviteeFlags,
  withListOutput,
  withTableOutput,
} from '../flag-sets.js';

type InvitationsFlags = InviteeFlags & ListOutputFlags & Partial<TableOutputFlags>;

async function runInvitations(invocation: Invocation<InvitationsFlags>, fallback: 'table' | 'csv') {
  const [{ localTimeZone }, { inviteeFilters }, out, { loadAudience }, { withContext }] =
    await Promise.all([
      import('@blockcatch/sdk'),
      import('../flags.js'),
      import('../output/list-output.js'),
      import('../audience.js'),
      import('../setup.js'),
    ]);
  const raw = invocation.options;
  const filters = inviteeFilters(raw);
  const format = out.listFormat(raw, fallback);
  await withContext(invocation, async (ctx, { t }) => {
    if (format.kind !== 'table') {
      const answer = await ctx.client.exportInvitations({
        format: format.kind === 'csv' ? 'csv' : 'ndjson',
        timeZone: localTimeZone(),
        ...filters,
        ...(raw.search ? { search: raw.search } : {}),
      });
      await out.streamListed(answer, format, t, { audience: 'invitees', filters });
      return;
    }
    const rows = await loadAudience(ctx, {
      kind: 'invitees',
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    out.printListed(rows, format, t);
  });
}

export const invitations = defineGroup({
  name: 'invitations',
  description: 'cli.help.invitations',
  commands: [
    defineCommand({
      name: 'list',
      description: 'cli.help.invitationsList',
      flags: (c) => withTableOutput(withInviteeFlags(c)),
      examples: [
        'blockcatch invitations list --registered no --invited-from 2026-01-01',
        'blockcatch invitations list --proxy-installed --json',
      ],
      run: (invocation) => runInvitations(invocation, 'table'),
    }),
    defineCommand({
      name: 'export',
      description: 'cli.help.invitationsExport',
      flags: (c) => withListOutput(withInviteeFlags(c)),
      examples: [
        'blockcatch invitations export --registered no --csv unpaid.csv',
        'blockcatch invitations export --proxy-installed --json',
      ],
      run: (invocation) => runInvitations(invocation, 'csv'),
    }),
  ],
});
