#!/usr/bin/env node
// Starts the sandbox gateway: reads flags and the environment, builds the gateway, seeds it on the
// first start, serves the web app when it is built, and prints where everything is.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '@blockcatch/sdk';
import {
  configFromEnv,
  type GatewayConfig,
  type GatewayConfigInput,
  listSettings,
  parseConfig,
} from './config.js';
import { renderEnvironmentHelp, summary } from './config-docs.js';
import { buildGateway, type Gateway } from './server.js';
import { DEFAULT_WEB_DIR, hasWebApp } from './web.js';

/** The settings a flag sets, by flag name without its dashes (`data-dir`). */
const FLAGGED = new Map(
  listSettings().flatMap((setting) =>
    setting.meta.flag ? [[setting.meta.flag.slice(2), setting] as const] : [],
  ),
);

function usage(): string {
  const flags = [...FLAGGED].map(
    ([name, { meta }]) => `  --${name.padEnd(10)} ${summary(meta.doc)}`,
  );
  return [
    'Usage: blockcatch-gateway [flags]',
    'Flags (each overrides its variable below):',
    ...flags,
    '  --no-seed    Start without the sandbox data, even on an empty database.',
    '  --help, -h   Show this.',
    'On SIGTERM or SIGINT it drains for BLOCKCATCH_SHUTDOWN_DRAIN_MS, then exits 0 within',
    'BLOCKCATCH_SHUTDOWN_TIMEOUT_MS. Environment (docs/operations.md, "Settings", says more):',
    renderEnvironmentHelp(),
  ].join('\n');
}

class UsageError extends Error {}

/** Flags over the environment, validated once: a bad value is named as the operator set it. */
function readConfig(argv: string[], env: NodeJS.ProcessEnv): GatewayConfig {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries([...FLAGGED.keys()].map((name) => [name, { type: 'string' }])),
        'no-seed': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Run with --help to see the flags.`);
  }
  if (values.help) {
    process.stdout.write(`${usage()}\n`);
    process.exit(0);
  }

  const input: Record<string, unknown> = { ...configFromEnv(env) };
  const given = new Set<string>();
  for (const [name, { path, meta }] of FLAGGED) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    // Flags set top-level fields only.
    input[path[0]!] = value;
    given.add(meta.flag!);
  }
  const webDir = input.webDir as string | undefined;
  Object.assign(input, {
    dataDir: resolve((input.dataDir as string | undefined) ?? '.blockcatch/data'),
    webDir: webDir ? resolve(webDir) : hasWebApp(DEFAULT_WEB_DIR) ? DEFAULT_WEB_DIR : undefined,
    seed: !values['no-seed'],
    // Request logs would bury the start banner; BLOCKCATCH_LOG_LEVEL=info brings them back.
    logLevel: input.logLevel ?? 'warn',
  });

  let config: GatewayConfig;
  try {
    config = parseConfig(input as GatewayConfigInput, given);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (values['web-dir'] && !hasWebApp(config.webDir!)) {
    throw new UsageError(
      `--web-dir ${config.webDir} holds no index.html: build the web app (npm run build) or leave the flag out.`,
    );
  }
  return config;
}

function banner(gateway: Gateway, url: string): string {
  const { config, seed } = gateway;
  const lines = [
    'BlockCatch sandbox gateway',
    `  API             ${url}/api  (health: ${url}/api/status/health)`,
    config.webDir
      ? `  Web app         ${url}/`
      : '  Web app         not built: `npm run build` builds it',
    config.databaseUrl
      ? '  Database        PostgreSQL (DATABASE_URL)'
      : `  Database        PGlite in ${config.dataDir}`,
    `  User pool       ${config.userPoolId}  client id ${config.clientId}  endpoint ${url}/`,
  ];
  if (seed && seed.staff.length > 0) {
    lines.push(
      seed.seeded
        ? `  Seeded          ${seed.counts.flexUsers} Flex and ${seed.counts.sparkUsers} Spark users, ${seed.counts.invitations} invitations, ${seed.counts.templates} templates`
        : '  Seeded          earlier (the database already had users)',
      '  Sandbox accounts (public passwords: for this sandbox only)',
      ...seed.staff.map(
        (s) => `    ${s.role.padEnd(7)} ${s.phoneNumber}  ${s.password.padEnd(18)} ${s.name}`,
      ),
    );
  }
  // The CLI's default gateway is the sandbox's default address; only another one needs --gateway.
  const gatewayFlag = url === 'http://127.0.0.1:8787' ? '' : ` --gateway ${url}`;
  lines.push(
    `  Command line    npx blockcatch login${gatewayFlag}   then: npx blockcatch --help`,
    config.messageProvider === 'outbox'
      ? `  Sent messages   stored, not sent: GET ${url}/api/sandbox/outbox (as an admin), or \`npx blockcatch outbox\``
      : '  Sent messages   delivered through Twilio',
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`blockcatch-gateway: ${error.message}\n`);
    process.exit(2);
  }

  let gateway: Gateway;
  try {
    gateway = await buildGateway(config);
  } catch (error) {
    // A setting that cannot work with another (a key that is not 32 bytes…): named, as above.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`blockcatch-gateway: ${error.message}\n`);
    process.exit(2);
  }
  const port = await gateway.listen(config.host, config.port);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now": skip the graceful close.
    if (closing) process.exit(1);
    closing = true;
    const { shutdownDrainMs, shutdownTimeoutMs } = config;
    process.stdout.write(
      `${signal}: draining for ${shutdownDrainMs / 1000} s, then closing (at most ${shutdownTimeoutMs / 1000} s)…\n`,
    );
    // The bound a supervisor can count on, whatever is still open: connections are cut and the
    // process ends as a normal stop would (in-memory work is gone; claimed sends go again).
    setTimeout(() => {
      process.stderr.write(
        `blockcatch-gateway: still closing after ${shutdownTimeoutMs / 1000} s; exiting now.\n`,
      );
      gateway.app.server.closeAllConnections();
      process.exit(0);
    }, shutdownTimeoutMs).unref();
    gateway.drain(shutdownDrainMs).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`blockcatch-gateway: close failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  // Listen before the banner: whoever reads it may signal at once.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(banner(gateway, `http://${host}:${port}`));
}

main().catch((error: unknown) => {
  process.stderr.write(`blockcatch-gateway: ${(error as Error).message}\n`);
  process.exit(1);
});
