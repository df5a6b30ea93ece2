// `blockcatch auth status` and `blockcatch auth token create|list|revoke`: which credential this
// run would use against which gateway, and tokens for machines (a cron job's BLOCKCATCH_TOKEN),
// shown once when created, listed without their secret, revoked at once.
import { defineCommand, defineGroup } from '../command.js';
import { jsonOnly } from '../flag-sets.js';
import { t } from '../i18n.js';

const DAY_MS = 86_400_000;

/** What every auth command uses, loaded when one runs. */
async function load() {
  const [sdk, { z }, { durationSchema }, errors, { flag }, { printJson }, table, self, setup] =
    await Promise.all([
      import('@blockcatch/sdk'),
      import('zod'),
      import('../duration.js'),
      import('../errors.js'),
      import('../flags.js'),
      import('../output/json.js'),
      import('../output/table.js'),
      import('../self-command.js'),
      import('../setup.js'),
    ]);
  const iso = (ts: number | null) =>
    ts === null ? null : sdk.formatIsoDateTime(ts, sdk.localTimeZone());
  return { z, durationSchema, errors, flag, printJson, table, self, setup, iso };
}

const status = defineCommand({
  name: 'status',
  description: 'cli.help.authStatus',
  flags: jsonOnly,
  examples: ['blockcatch auth status', 'BLOCKCATCH_TOKEN=bct_… blockcatch auth status --json'],
  async run(invocation) {
    const { errors, printJson, self, setup } = await load();
    await setup.withContext(invocation, async (ctx, { t }) => {
      if (ctx.credential === 'session' && !(await ctx.auth.getIdToken())) {
        throw new errors.CommandFailure(
          t('cli.authStatus.none', { gateway: ctx.gatewayUrl, login: self.commandLine('login') }),
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
      setup.say(
        t(ctx.credential === 'token' ? 'cli.authStatus.token' : 'cli.authStatus.session', {
          gateway: ctx.gatewayUrl,
          name: me.name,
          profile: ctx.profile,
        }),
      );
    });
  },
});

const create = defineCommand({
  name: 'create',
  description: 'cli.help.tokenCreate',
  flags: (c) =>
    c
      .requiredOption('--name <name>', t('cli.help.tokenName'))
      .option('--expires <duration>', t('cli.help.tokenExpires'))
      .option('--json', t('cli.help.jsonPlain')),
  examples: ['blockcatch auth token create --name cron --expires 90d'],
  async run(invocation) {
    const { z, durationSchema, flag, printJson, self, setup, iso } = await load();
    const { options } = invocation;
    const nameSchema = z
      .string()
      .min(1)
      .max(60)
      .regex(/^[\w .@-]+$/);
    const name = flag('--name', nameSchema, options.name, t('cli.errors.tokenNameFix'));
    // A day to a year, in whole days (a part day counts as one).
    const expiresMs = flag(
      '--expires',
      durationSchema(DAY_MS, 366 * DAY_MS),
      options.expires ?? '90d',
      t('cli.errors.tokenExpiresFix'),
    );
    await setup.withContext(invocation, async (ctx, { t }) => {
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
        setup.say(created.token);
      }
      setup.note(
        t('cli.tokens.shownOnce', {
          id: created.id,
          expires: iso(created.expiresAt),
          revoke: self.commandLine(`auth token revoke ${created.id}`),
        }),
      );
    });
  },
});

const list = defineCommand({
  name: 'list',
  description: 'cli.help.tokenList',
  flags: jsonOnly,
  examples: ['blockcatch auth token list', 'blockcatch auth token list --json'],
  async run(invocation) {
    const { printJson, table, setup, iso } = await load();
    await setup.withContext(invocation, async (ctx, { t }) => {
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
      setup.say(
        table.renderTable(
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
  },
});

const revoke = defineCommand({
  name: 'revoke',
  description: 'cli.help.tokenRevoke',
  // An id may start with `-` (ids made before they no longer could): read it as the id, not an option.
  flags: (c) => c.argument('<id>', t('cli.help.tokenId')).allowUnknownOption(),
  examples: ['blockcatch auth token revoke Xb3kq9LmT0aZ'],
  async run(invocation) {
    const { z, flag, setup } = await load();
    const idSchema = z.string().regex(/^[A-Za-z0-9_-]{12}$/);
    const id = flag('<id>', idSchema, invocation.args[0], t('cli.errors.tokenIdFix'));
    await setup.withContext(invocation, async (ctx, { t }) => {
      const revoked = await ctx.client.apiTokens.revoke(id);
      setup.say(t('cli.tokens.revoked', { id: revoked.id, name: revoked.name }));
    });
  },
});

export const auth = defineGroup({
  name: 'auth',
  description: 'cli.help.auth',
  commands: [
    status,
    defineGroup({
      name: 'token',
      description: 'cli.help.authToken',
      commands: [create, list, revoke],
    }),
  ],
});
