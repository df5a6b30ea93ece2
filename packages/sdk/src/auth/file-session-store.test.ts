// The CLI's session file: private to the user, refused when it is not.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, createFileSessionStore } from './file-session-store.js';

describe('createFileSessionStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bc-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one file per profile with mode 0600, even under a permissive umask', () => {
    const previous = process.umask(0o000);
    try {
      const store = createFileSessionStore({ dir, profile: 'work' });
      store.setItem('a', '1');
      expect(store.path).toBe(join(dir, 'work.json'));
      expect(statSync(store.path).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ a: '1' });
    } finally {
      process.umask(previous);
    }
  });

  it('reads back what an earlier process stored', () => {
    createFileSessionStore({ dir }).setItem('token', 'abc');
    expect(createFileSessionStore({ dir }).getItem('token')).toBe('abc');
  });

  it("keeps one gateway's session apart from another's in the same profile file", () => {
    const here = createFileSessionStore({ dir, namespace: 'https://gw.example' });
    here.setItem('idToken', 'for-gw');
    const there = createFileSessionStore({ dir, namespace: 'http://127.0.0.1:9999' });
    expect(there.getItem('idToken')).toBeNull();
    there.setItem('idToken', 'for-local');
    there.clear();
    const again = createFileSessionStore({ dir, namespace: 'https://gw.example' });
    expect(again.getItem('idToken')).toBe('for-gw');
    expect(createFileSessionStore({ dir }).getItem('idToken')).toBeNull();
  });

  it('refuses a file others can read, naming the file and the chmod that fixes it', () => {
    const path = join(dir, 'default.json');
    writeFileSync(path, '{}', { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(() => createFileSessionStore({ dir })).toThrow(`chmod 600 ${path}`);
  });

  it('explains a corrupt file instead of crashing', () => {
    const path = join(dir, 'default.json');
    writeFileSync(path, '{not json', { mode: 0o600 });
    expect(() => createFileSessionStore({ dir })).toThrow(/not a readable session file/);
  });

  it('removes the file on clear', () => {
    const store = createFileSessionStore({ dir });
    store.setItem('a', '1');
    store.clear();
    expect(() => statSync(store.path)).toThrow();
    expect(store.getItem('a')).toBeNull();
  });

  it('rejects profile names that could escape the folder', () => {
    expect(() => createFileSessionStore({ dir, profile: '../x' })).toThrow(/Profile name/);
  });

  it('lives in $XDG_CONFIG_HOME/blockcatch, else ~/.config/blockcatch', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/blockcatch');
    expect(configDir({})).toMatch(/\.config\/blockcatch$/);
  });
});
