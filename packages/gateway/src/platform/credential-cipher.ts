// Seals the delivery-platform credentials and session tokens kept for each driver: AES-256-GCM
// with the platform key, so a copy of the database alone does not reveal them.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseResponseKey } from '@blockcatch/sdk';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1.';

export interface CredentialCipher {
  seal(value: unknown): string;
  /** Throws when the text was sealed with another key or changed since. */
  open<T>(sealed: string): T;
}

export function createCredentialCipher(key: Uint8Array): CredentialCipher {
  if (key.length !== 32) throw new RangeError('The platform key must be 32 bytes.');
  return {
    seal(value) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
    },
    open<T>(sealed: string): T {
      if (!sealed.startsWith(VERSION)) throw new Error('Unknown sealed credential format.');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      return JSON.parse(text) as T;
    },
  };
}

/**
 * The key from BLOCKCATCH_PLATFORM_KEY; unset, the sandbox keeps a generated key next to its data
 * folder (`<dataDir>.platform-key`) so links survive restarts, or one per process when in memory.
 * Several processes on one PostgreSQL database must share a key, so they need it set.
 */
export async function loadPlatformKey(config: {
  platformKey?: string | undefined;
  dataDir?: string | undefined;
}): Promise<{ key: Uint8Array; source: 'config' | 'file' | 'process' }> {
  if (config.platformKey) return { key: parseResponseKey(config.platformKey), source: 'config' };
  if (!config.dataDir) return { key: randomBytes(32), source: 'process' };
  const file = `${config.dataDir}.platform-key`;
  try {
    return { key: parseResponseKey(await readFile(file, 'utf8')), source: 'file' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  // On PostgreSQL nothing else creates the data folder's parent, and a first start must not fail.
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // `wx` fails if another process wrote it meanwhile; its key is then the one to use.
  await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(() => {});
  return { key: parseResponseKey(await readFile(file, 'utf8')), source: 'file' };
}
