// `blockcatch invitations list|export [filters]`: invitees as the notifications screen builds them.
import { inviteeFilters, type RawInviteeFlags } from '../flags.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import {
  type ListOutputOptions,
  listFormat,
  printListed,
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
    const rows = await loadAudience(ctx, {
      kind: 'invitees',
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    await printListed(rows, format, t, { audience: 'invitees', filters });
  });
}
