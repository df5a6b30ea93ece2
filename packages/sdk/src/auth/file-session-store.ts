// The CLI's session store: one JSON file per profile in $XDG_CONFIG_HOME/blockcatch/ (or
// ~/.config/blockcatch/), private to the user. Node only: reached through the `./node` entry.
import {
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import type { SessionStore } from './session-store.js';

export interface FileSessionStoreOptions {
  /** One file per profile; default 'default'. */
  profile?: string;
  /** Overrides the folder (tests); default $XDG_CONFIG_HOME/blockcatch or ~/.config/blockcatch. */
  dir?: string;
  env?: Record<string, string | undefined>;
  /**
   * Keeps this store's keys apart from others in the same file (the CLI gives the gateway's
   * origin): a session signed in on one gateway is never read, so never sent, for another.
   */
  namespace?: string;
}

export type FileSessionStore = SessionStore & { readonly path: string };

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `$XDG_CONFIG_HOME/blockcatch`, or `~/.config/blockcatch` when XDG_CONFIG_HOME is unset. */
export function configDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'blockcatch');
}

export function createFileSessionStore(options: FileSessionStoreOptions = {}): FileSessionStore {
  const profile = options.profile ?? 'default';
  if (!PROFILE_NAME.test(profile)) {
    throw new ConfigError(
      `Profile name "${profile}" is not allowed: use letters, digits, '.', '_' or '-'.`,
    );
  }
  const dir = options.dir ?? configDir(options.env);
  const path = join(dir, `${profile}.json`);
  const items = new Map<string, string>(Object.entries(readPrivateJson(path)));

  function persist(): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Write beside the file, then rename: a crash never leaves half a session behind.
    const temp = `${path}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      // The mode given to open is filtered by the umask; fchmod makes it exactly 0600.
      fchmodSync(fd, 0o600);
      writeSync(fd, JSON.stringify(Object.fromEntries(items), null, 2));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  }

  const prefix = options.namespace === undefined ? '' : `${options.namespace}|`;
  return {
    path,
    getItem: (key) => items.get(prefix + key) ?? null,
    setItem: (key, value) => {
      items.set(prefix + key, value);
      persist();
    },
    removeItem: (key) => {
      if (items.delete(prefix + key)) persist();
    },
    clear: () => {
      for (const key of [...items.keys()]) if (key.startsWith(prefix)) items.delete(key);
      if (items.size === 0) rmSync(path, { force: true });
      else persist();
    },
  };
}

/** Reads the profile file, refusing one that other users can read: it holds live tokens. */
function readPrivateJson(path: string): Record<string, string> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const mode = fstatSync(fd).mode;
    if ((mode & 0o077) !== 0) {
      throw new ConfigError(
        `${path} holds your session tokens but other users can read it (mode ${(mode & 0o777).toString(8)}). Fix it with: chmod 600 ${path}`,
      );
    }
    const text = readFileSync(fd, 'utf8');
    if (text.trim() === '') return {};
    const data: unknown = JSON.parse(text);
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new SyntaxError('not an object');
    return Object.fromEntries(
      Object.entries(data).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `${path} is not a readable session file (${(error as Error).message}). Sign in again, or delete it: rm ${path}`,
      { cause: error },
    );
  } finally {
    closeSync(fd);
  }
}
