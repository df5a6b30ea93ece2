// One process at a time on an embedded data folder: PGlite has no lock of its own, and two
// processes writing one folder corrupt it. The lock is a file beside the folder holding the owner's
// process id; a lock whose process is gone (killed, crashed) is taken over.
import { open, readFile, rm } from 'node:fs/promises';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by process ${pid}: stop that gateway or choose another ` +
        `data folder (--data-dir). If no such gateway runs, delete ${dataDir}.lock.`,
    );
  }
}

/** Takes the folder's lock; the returned function releases it. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = `${dataDir}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    const alive = Number.isInteger(owner) && owner > 0 && isAlive(owner);
    // A second collision means another process took the stale lock first.
    if (alive || attempt > 0) throw new DataDirInUseError(dataDir, owner);
    await rm(file, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
