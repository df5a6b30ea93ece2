// Timing shared by the SDK's benchmarks: medians of tasks that take turns run by run.

export interface Timing {
  median: number;
  /** What the task's last run returned, so the work is used and shown. */
  result: number;
}

/**
 * Median time of each task, the tasks taking turns run by run so that a busy machine slows them
 * alike and their ratio stays fair.
 */
export function timeMedians<K extends string>(
  tasks: Record<K, () => number>,
  runs: { warmUp: number; timed: number },
): Record<K, Timing> {
  const names = Object.keys(tasks) as K[];
  const times = new Map<K, number[]>(names.map((name) => [name, []]));
  const results = new Map<K, number>();
  for (let run = 0; run < runs.warmUp + runs.timed; run++) {
    for (const name of names) {
      const start = performance.now();
      results.set(name, tasks[name]());
      if (run >= runs.warmUp) times.get(name)!.push(performance.now() - start);
    }
  }
  const timings = {} as Record<K, Timing>;
  for (const name of names) {
    const list = times.get(name)!.sort((a, b) => a - b);
    timings[name] = { median: list[Math.floor(list.length / 2)]!, result: results.get(name)! };
  }
  return timings;
}
