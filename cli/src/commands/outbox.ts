// `blockcatch outbox`: what the sandbox's message provider delivered, newest first.
import { normalizePhone } from '@blockcatch/sdk';
import { z } from 'zod';
import { badFlag } from '../errors.js';
import { flag } from '../flags.js';
import { t as translate } from '../i18n.js';
import { printJson } from '../output/json.js';
import { renderTable } from '../output/table.js';
import { isoTime, withIsoTimes } from '../output/time.js';
import type { Invocation } from '../program.js';
import { say, withContext } from './setup.js';

export interface OutboxOptions {
  to?: string;
  limit?: string;
  json?: true;
}

export async function runOutbox(invocation: Invocation<OutboxOptions>): Promise<void> {
  const { options } = invocation;
  const limit = flag(
    '--limit',
    z.coerce.number().int().min(1).max(1000),
    options.limit ?? '20',
    translate('cli.errors.wholeNumberFix', { min: 1, max: 1000 }),
  );
  let to: string | undefined;
  if (options.to !== undefined) {
    to = normalizePhone(options.to) ?? undefined;
    if (!to) throw badFlag('--to', options.to, translate('cli.errors.phoneFix'));
  }
  await withContext(invocation, async (ctx, { t }) => {
    const items = await ctx.client.outbox({ limit, ...(to ? { to } : {}) });
    if (options.json) {
      printJson({ count: items.length, items: withIsoTimes(items) });
      return;
    }
    say(
      renderTable(
        [
          t('cli.outbox.id'),
          t('cli.outbox.channel'),
          t('cli.outbox.to'),
          t('cli.outbox.body'),
          t('cli.outbox.at'),
        ],
        items.map((m) => [
          String(m.id),
          m.channel,
          m.to,
          m.body.length > 60 ? `${m.body.slice(0, 57)}...` : m.body,
          isoTime(m.createdAt),
        ]),
      ).text,
    );
  });
}
