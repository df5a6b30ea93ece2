// A vitest reporter that ends the run with its ten slowest test files and the wall time of the
// run, so a file that grows slow is seen before the suite does.
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  private started = performance.now();

  onTestRunStart() {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    if (modules.length === 0) return;
    const timed = modules.map((module) => {
      const d = module.diagnostic();
      return {
        file: `${module.project.name}: ${relative(process.cwd(), module.moduleId)}`,
        // What the file costs its worker: importing it and running its tests and hooks.
        ms: d.collectDuration + d.duration,
      };
    });
    timed.sort((a, b) => b.ms - a.ms);
    const lines = timed
      .slice(0, SHOWN)
      .map(({ file, ms }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
    const wall = ((performance.now() - this.started) / 1000).toFixed(0);
    console.log(
      `\nSlowest ${Math.min(SHOWN, timed.length)} test files (run: ${wall} s):\n${lines.join('\n')}`,
    );
  }
}
