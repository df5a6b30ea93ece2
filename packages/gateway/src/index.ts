// The gateway as a library: build one in-process (tests, the CLI's local mode) with its settings.

export type { Principal } from './api/authenticate.js';
export {
  ConfigError,
  configFromEnv,
  configSchema,
  type GatewayConfig,
  type GatewayConfigInput,
  parseConfig,
} from './config.js';
export { DEFAULT_FIXTURES_DIR, type SeedReport } from './seed.js';
export { BODY_LIMIT, buildGateway, type Gateway } from './server.js';
export type { Db } from './storage/db.js';
