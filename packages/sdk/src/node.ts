// The Node-only face of @blockcatch/sdk (`@blockcatch/sdk/node`): the pieces that need node:fs or
// undici, kept out of the main entry so the browser build never reaches them. Re-exports only.
export {
  configDir,
  createFileSessionStore,
} from './auth/file-session-store.js';
export { createUndiciTransport } from './gateway/undici-transport.js';
