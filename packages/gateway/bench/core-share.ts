// The share of one core this whole process spends over a stretch of wall time (every thread:
// PGlite's worker, libuv's pool), for the benches that measure what waiting costs.
import { setTimeout as sleep } from 'node:timers/promises';

export async function coreShare(seconds: number): Promise<number> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await sleep(seconds * 1000);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / (performance.now() - wall);
}
