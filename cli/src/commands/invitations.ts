// `blockcatch invitations list|export [filters]`: invitees as the notifications screen builds them.
import { inviteeFilters, type RawInviteeFlags } from '../flags.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import { listFormat, printListed } from './list-output.js';
import { withContext } from './setup.js';

export const runInvitationsList = (invocation: Invocation) => runInvitations(invocation, 'table');
export const runInvitationsExport = (invocation: Invocation) => runInvitations(invocation, 'csv');

async function runInvitations(invocation: Invocation, fallback: 'table' | 'csv'): Promise<void> {
  const raw = invocation.options as RawInviteeFlags & Record<string, unknown>;
  const filters = inviteeFilters(raw);
  const format = listFormat(invocation.options, fallback);
  await withContext(invocation, async (ctx, { t }) => {
    const rows = await loadAudience(ctx, {
      kind: 'invitees',
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    await printListed(rows, format, t, { audience: 'invitees', filters });
  });
}
