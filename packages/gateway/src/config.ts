// The gateway's settings, read once from flags and the environment and validated at the edge.
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z.string().trim().min(1).optional();

export const configSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(8787),
  /** PGlite's data folder; ignored when `databaseUrl` is set. Unset means in memory. */
  dataDir: optionalString,
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** Postgres schema to work in (tests give each run its own). */
  databaseSchema: optionalString,
  /** Folder of the built web app to serve; skipped when absent. */
  webDir: optionalString,
  seed: z.boolean().default(true),
  /** 32-byte key, base64 or hex; when set, the user tables answer encrypted. */
  responseKey: optionalString,
  userPoolId: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'must look like region_id, e.g. us-east-1_Sandbox01')
    .max(55)
    .default('us-east-1_Sandbox01'),
  clientId: z.string().min(1).default('blockcatch-sandbox-client'),
  /** Where the signing key is kept; unset generates one per process (tokens then die on restart). */
  keyFile: optionalString,
  messageProvider: z.enum(['outbox', 'twilio']).default('outbox'),
  /** Messages per second the send worker delivers; 0 lifts the limit. */
  sendRate: z.coerce.number().min(0).default(10),
  twilio: z
    .object({
      accountSid: optionalString,
      authToken: optionalString,
      from: optionalString,
      whatsappFrom: optionalString,
      baseUrl: z.string().url().default('https://api.twilio.com'),
    })
    .default({ baseUrl: 'https://api.twilio.com' }),
  versionId: z.string().min(1).default('sandbox-1'),
  cdnId: z.string().min(1).default('sandbox-cdn'),
  /** Seconds an id token lives (Cognito: one hour). */
  idTokenTtl: z.coerce.number().int().positive().default(3600),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
});

export type GatewayConfig = z.infer<typeof configSchema>;
export type GatewayConfigInput = z.input<typeof configSchema>;

/** Reads the BLOCKCATCH_* environment (and DATABASE_URL); flags given to main.ts override it. */
export function configFromEnv(env: NodeJS.ProcessEnv): GatewayConfigInput {
  const e = (name: string) => (env[name] === '' ? undefined : env[name]);
  return {
    host: e('BLOCKCATCH_HOST'),
    port: e('BLOCKCATCH_PORT') ?? e('PORT'),
    dataDir: e('BLOCKCATCH_DATA_DIR'),
    databaseUrl: e('DATABASE_URL'),
    databaseSchema: e('BLOCKCATCH_DATABASE_SCHEMA'),
    webDir: e('BLOCKCATCH_WEB_DIR'),
    responseKey: e('BLOCKCATCH_RESPONSE_KEY'),
    userPoolId: e('BLOCKCATCH_USER_POOL_ID'),
    clientId: e('BLOCKCATCH_CLIENT_ID'),
    keyFile: e('BLOCKCATCH_KEY_FILE'),
    messageProvider: e('BLOCKCATCH_MESSAGE_PROVIDER') as GatewayConfigInput['messageProvider'],
    sendRate: e('BLOCKCATCH_SEND_RATE'),
    twilio: {
      accountSid: e('TWILIO_ACCOUNT_SID'),
      authToken: e('TWILIO_AUTH_TOKEN'),
      from: e('TWILIO_FROM'),
      whatsappFrom: e('TWILIO_WHATSAPP_FROM'),
      baseUrl: e('TWILIO_BASE_URL') ?? 'https://api.twilio.com',
    },
    logLevel: e('BLOCKCATCH_LOG_LEVEL') as GatewayConfigInput['logLevel'],
  };
}

/** Validates settings, failing with one line per bad field: its name, its value and the rule. */
export function parseConfig(input: GatewayConfigInput): GatewayConfig {
  const result = configSchema.safeParse(input);
  if (result.success) {
    if (result.data.messageProvider === 'twilio') {
      const { accountSid, authToken, from } = result.data.twilio;
      if (!accountSid || !authToken || !from) {
        throw new ConfigError(
          'BLOCKCATCH_MESSAGE_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM to be set.',
        );
      }
    }
    return result.data;
  }
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.join('.');
    const value = issue.path.reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
      input,
    );
    const shown = /key|token|secret/i.test(field) ? '(hidden)' : JSON.stringify(value);
    return `${field}: ${shown} is not valid: ${issue.message}`;
  });
  throw new ConfigError(lines.join('\n'));
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
