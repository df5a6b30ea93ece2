import { randomBytes } from 'node:crypto';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCredentialCipher, loadPlatformKey } from './credential-cipher.js';

describe('credential cipher', () => {
  it('opens what it sealed and hides the plain text', () => {
    const cipher = createCredentialCipher(randomBytes(32));
    const sealed = cipher.seal({ email: 'dana@example.com', password: 'hunter22' });
    expect(sealed).not.toContain('hunter22');
    expect(sealed).not.toContain('dana');
    expect(cipher.open(sealed)).toEqual({ email: 'dana@example.com', password: 'hunter22' });
  });

  it('refuses text sealed with another key or changed since', () => {
    const sealed = createCredentialCipher(randomBytes(32)).seal({ a: 1 });
    expect(() => createCredentialCipher(randomBytes(32)).open(sealed)).toThrow();
    const cipher = createCredentialCipher(randomBytes(32));
    const good = cipher.seal({ a: 1 });
    const tampered = `${good.slice(0, -4)}${good.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect(() => cipher.open(tampered)).toThrow();
  });

  it('reads the key from the setting, hex or base64', async () => {
    const key = randomBytes(32);
    expect((await loadPlatformKey({ platformKey: key.toString('hex') })).key).toEqual(
      new Uint8Array(key),
    );
    expect((await loadPlatformKey({ platformKey: key.toString('base64') })).source).toBe('config');
    await expect(loadPlatformKey({ platformKey: 'short' })).rejects.toThrow(/32 bytes/);
  });

  it('keeps one generated key per data folder across restarts', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'bc-key-')), 'data');
    const first = await loadPlatformKey({ dataDir });
    const second = await loadPlatformKey({ dataDir });
    expect(first.source).toBe('file');
    expect(second.key).toEqual(first.key);
  });

  it('creates the folder it keeps the key in, as a first start on PostgreSQL needs', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'bc-key-')), 'new', 'folder', 'data');
    const first = await loadPlatformKey({ dataDir });
    expect(first.source).toBe('file');
    expect((await stat(`${dataDir}.platform-key`)).mode & 0o777).toBe(0o600);
    expect((await loadPlatformKey({ dataDir })).key).toEqual(first.key);
  });
});
