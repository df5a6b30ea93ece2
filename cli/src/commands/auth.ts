// `blockcatch auth status` and `blockcatch auth token create|list|revoke`: which credential this
// run would use against which gateway, and tokens for machines (a cron job's BLOCKCATCH_TOKEN),
// shown once when created, listed without their secret, revoked at once.
import { formatIsoDateTime, localTimeZone } from '@blockcatch/sdk';
import { z } from 'zod';
import { durationSchema } from '../duration.js';
import { CommandFailure } from '../errors.js';
import { flag } from '../flags.js';
import { t as translate } from '../i18n.js';
import { printJson } from '../output/json.js';
import { renderTable } from '../output/table.js';
import type { Invocation } from '../program.js';
import { commandLine } from '../self-command.js';
import { note, say, withContext } from './setup.js';

const DAY_MS = 86_400_000;
const nameSchema = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[\w .@-]+$/);
/** `--expires`: a day to a year, in whole days (a part day counts as one). */
const expiresSchema = durationSchema(DAY_MS, 366 * DAY_MS);
const idSchema = z.string().regex(/^[A-Za-z0-9_-]{12}$/);

const iso = (ts: number | null) => (ts === null ? null : formatIsoDateTime(ts, localTimeZone()));

export async function runAuthStatus(invocation: Invocation<{ json?: true }>): Promise<void> {
  await withContext(invocation, async (ctx, { t }) => {
    if (ctx.credential === 'session' && !(await ctx.auth.getIdToken())) {
      throw new CommandFailure(
        t('cli.authStatus.none', { gateway: ctx.gatewayUrl, login: commandLine('login') }),
      );
    }
    const me = await ctx.client.me();
    if (invocation.options.json) {
      printJson({
        gateway: ctx.gatewayUrl,
        profile: ctx.profile,
        credential: ctx.credential,
        user: { name: me.name, phoneNumber: me.phoneNumber, role: me.role?.role ?? null },
      });
      return;
    }
    say(
      t(ctx.credential === 'token' ? 'cli.authStatus.token' : 'cli.authStatus.session', {
        gateway: ctx.gatewayUrl,
        name: me.name,
        profile: ctx.profile,
      }),
    );
  });
}

export async function runTokenCreate(
  invocation: Invocation<{ name?: string; expires?: string; json?: true }>,
): Promise<void> {
  const { options } = invocation;
  const name = flag('--name', nameSchema, options.name, translate('cli.errors.tokenNameFix'));
  const expiresMs = flag(
    '--expires',
    expiresSchema,
    options.expires ?? '90d',
    translate('cli.errors.tokenExpiresFix'),
  );
  await withContext(invocation, async (ctx, { t }) => {
    const created = await ctx.client.apiTokens.create({
      name,
      expiresInDays: Math.ceil(expiresMs / DAY_MS),
    });
    if (options.json) {
      printJson({
        id: created.id,
        name: created.name,
        token: created.token,
        expiresAt: iso(created.expiresAt),
      });
    } else {
      // The token alone on stdout, so `$(blockcatch auth token create …)` captures just it.
      say(created.token);
    }
    note(
      t('cli.tokens.shownOnce', {
        id: created.id,
        expires: iso(created.expiresAt),
        revoke: commandLine(`auth token revoke ${created.id}`),
      }),
    );
  });
}

export async function runTokenList(invocation: Invocation<{ json?: true }>): Promise<void> {
  await withContext(invocation, async (ctx, { t }) => {
    const tokens = await ctx.client.apiTokens.list();
    const now = Date.now();
    const state = (token: (typeof tokens)[number]) =>
      token.revokedAt !== null ? 'revoked' : token.expiresAt <= now ? 'expired' : 'active';
    if (invocation.options.json) {
      printJson({
        count: tokens.length,
        items: tokens.map((token) => ({
          id: token.id,
          name: token.name,
          state: state(token),
          createdAt: iso(token.createdAt),
          expiresAt: iso(token.expiresAt),
          lastUsedAt: iso(token.lastUsedAt),
          revokedAt: iso(token.revokedAt),
        })),
      });
      return;
    }
    say(
      renderTable(
        [
          t('cli.tokens.id'),
          t('cli.tokens.name'),
          t('cli.tokens.state'),
          t('cli.tokens.expires'),
          t('cli.tokens.lastUsed'),
        ],
        tokens.map((token) => [
          token.id,
          token.name,
          t(`cli.tokens.states.${state(token)}`),
          iso(token.expiresAt) ?? '',
          iso(token.lastUsedAt) ?? t('cli.tokens.never'),
        ]),
      ).text,
    );
  });
}

export async function runTokenRevoke(invocation: Invocation): Promise<void> {
  const id = flag('<id>', idSchema, invocation.args[0], translate('cli.errors.tokenIdFix'));
  await withContext(invocation, async (ctx, { t }) => {
    const revoked = await ctx.client.apiTokens.revoke(id);
    say(t('cli.tokens.revoked', { id: revoked.id, name: revoked.name }));
  });
}
