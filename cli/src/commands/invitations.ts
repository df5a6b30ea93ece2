// `blockcatch invitations list|export [filters]`: invitees as the notifications screen builds them,
// as a table page, or streamed as CSV or JSON from the gateway's export.
import { localTimeZone } from '@blockcatch/sdk';
import { inviteeFilters, type RawInviteeFlags } from '../flags.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import {
  type ListOutputOptions,
  listFormat,
  printListed,
  streamListed,
  type TableOutputOptions,
} from './list-output.js';
import { withContext } from './setup.js';

export const runInvitationsList = (invocation: Invocation<RawInviteeFlags & TableOutputOptions>) =>
  runInvitations(invocation, invocation.options, 'table');
export const runInvitationsExport = (invocation: Invocation<RawInviteeFlags & ListOutputOptions>) =>
  runInvitations(invocation, invocation.options, 'csv');

async function runInvitations(
  invocation: Invocation<RawInviteeFlags>,
  output: TableOutputOptions,
  fallback: 'table' | 'csv',
): Promise<void> {
  const raw = invocation.options;
  const filters = inviteeFilters(raw);
  const format = listFormat(output, fallback);
  await withContext(invocation, async (ctx, { t }) => {
    if (format.kind !== 'table') {
      const answer = await ctx.client.exportInvitations({
        format: format.kind === 'csv' ? 'csv' : 'ndjson',
        timeZone: localTimeZone(),
        ...filters,
        ...(raw.search ? { search: raw.search } : {}),
      });
      await streamListed(answer, format, t, { audience: 'invitees', filters });
      return;
    }
    const rows = await loadAudience(ctx, {
      kind: 'invitees',
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    printListed(rows, format, t);
  });
}
