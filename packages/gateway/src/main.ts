#!/usr/bin/env node
// Starts the sandbox gateway: reads flags and the environment, builds the gateway, seeds it on the
// first start, serves the web app when it is built, and prints where everything is.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '@blockcatch/sdk';
import { configFromEnv, configSchema, type GatewayConfigInput } from './config.js';
import { buildGateway, type Gateway } from './server.js';
import { DEFAULT_WEB_DIR, hasWebApp } from './web.js';

const USAGE = `Usage: blockcatch-gateway [--host 127.0.0.1] [--port 8787] [--data-dir ./.blockcatch/data]
                          [--web-dir web/dist] [--no-seed]
Environment: BLOCKCATCH_HOST, BLOCKCATCH_PORT, DATABASE_URL (use PostgreSQL instead of PGlite),
BLOCKCATCH_RESPONSE_KEY, BLOCKCATCH_LOG_LEVEL, BLOCKCATCH_MESSAGE_PROVIDER and TWILIO_*.
On SIGTERM or SIGINT it drains for BLOCKCATCH_SHUTDOWN_DRAIN_MS, then exits 0 within
BLOCKCATCH_SHUTDOWN_TIMEOUT_MS (docs/operations.md).`;

// Which flag sets each config field, so a bad value is reported under the name the user typed.
const FLAG_OF: Record<string, string> = {
  host: '--host',
  port: '--port',
  dataDir: '--data-dir',
  webDir: '--web-dir',
};

// How to put each flag right, said after what was wrong.
const FIX_OF: Record<string, string> = {
  port: 'use a whole number from 0 to 65535 (0 picks a free port)',
  host: 'use an address such as 127.0.0.1 or 0.0.0.0',
};

class UsageError extends Error {}

function readConfig(argv: string[], env: NodeJS.ProcessEnv) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'web-dir': { type: 'string' },
        'no-seed': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Run with --help to see the flags.`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }

  const fromEnv = configFromEnv(env);
  const webDir = (values['web-dir'] as string | undefined) ?? fromEnv.webDir;
  const input: GatewayConfigInput = {
    ...fromEnv,
    host: (values.host as string | undefined) ?? fromEnv.host,
    port: (values.port as string | undefined) ?? fromEnv.port,
    dataDir: resolve(
      (values['data-dir'] as string | undefined) ?? fromEnv.dataDir ?? '.blockcatch/data',
    ),
    webDir: webDir ? resolve(webDir) : hasWebApp(DEFAULT_WEB_DIR) ? DEFAULT_WEB_DIR : undefined,
    seed: !values['no-seed'],
    // Request logs would bury the start banner; BLOCKCATCH_LOG_LEVEL=info brings them back.
    logLevel: fromEnv.logLevel ?? 'warn',
  };

  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? '');
    const value = (input as Record<string, unknown>)[field];
    const shown = /key|token|secret|url/i.test(field) ? '(hidden)' : JSON.stringify(value);
    throw new UsageError(
      `${FLAG_OF[field] ?? field} ${shown} is not valid: ${FIX_OF[field] ?? issue.message}. Run with --help to see the flags.`,
    );
  }
  if (values['web-dir'] && !hasWebApp(parsed.data.webDir!)) {
    throw new UsageError(
      `--web-dir ${parsed.data.webDir} holds no index.html: build the web app (npm run build) or leave the flag out.`,
    );
  }
  return input;
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
  let input: GatewayConfigInput;
  try {
    input = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`blockcatch-gateway: ${error.message}\n`);
    process.exit(2);
  }

  let gateway: Gateway;
  try {
    gateway = await buildGateway(input);
  } catch (error) {
    // A setting missing or out of bounds: one line naming it, as for a bad flag.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`blockcatch-gateway: ${error.message}\n`);
    process.exit(2);
  }
  const { config } = gateway;
  await gateway.app.listen({
    host: config.host,
    port: config.port,
    backlog: config.listenBacklog,
  });
  const address = gateway.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
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
