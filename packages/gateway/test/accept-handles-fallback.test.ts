// The copies of the listening socket come from a short-lived child process; when it cannot start,
// or starts and never answers, the server goes on accepting on its own descriptor alone, in
// bounded time, and start does not fail.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addAcceptHandles } from '../src/http/accept-handles.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listening(): Promise<{ server: Server; url: string }> {
  const started = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
  server = started;
  const address = started.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server: started, url: `http://127.0.0.1:${address.port}/` };
}

async function answers(url: string): Promise<string> {
  return (await fetch(url, { headers: { connection: 'close' } })).text();
}

describe('copies of the listening socket', () => {
  it('are made by Node: the server accepts on them', async () => {
    const { server: http, url } = await listening();
    const handles = await addAcceptHandles(http, 3, 511);
    expect(handles.added).toBe(3);
    expect(await answers(url)).toBe('ok');
    await handles.close();
  });

  it('are none when the child cannot start, and the server still answers', async () => {
    const { server: http, url } = await listening();
    const handles = await addAcceptHandles(http, 3, 511, {
      execPath: join(tmpdir(), 'no-such-node-here'),
      timeoutMs: 60_000,
    });
    expect(handles.added).toBe(0);
    expect(await answers(url)).toBe('ok');
  });

  it('are none when the child never answers, once its time is up', async () => {
    const { server: http, url } = await listening();
    // A child that holds the channel open and reads nothing from it.
    const folder = await mkdtemp(join(tmpdir(), 'bc-silent-'));
    const silent = join(folder, 'silent-child');
    await writeFile(silent, '#!/bin/sh\nexec sleep 60\n');
    await chmod(silent, 0o755);
    const handles = await addAcceptHandles(http, 3, 511, { execPath: silent, timeoutMs: 300 });
    await rm(folder, { recursive: true });
    expect(handles.added).toBe(0);
    expect(await answers(url)).toBe('ok');
  });
});
