// `npm run test:stress [-- RUNS]`: runs `npm test` RUNS times (default 10) while two CPU-bound
// busy loops run beside it, as on a loaded machine, and stops at the first failing run. A suite
// that depends on the machine's speed fails here long before it fails in CI.
//
// The load is `stress-ng --cpu 2` when it is installed, else two node busy loops. BLOCKCATCH_STRESS_RUNS
// also sets the number of runs.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? process.env.BLOCKCATCH_STRESS_RUNS ?? 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(
    `runs must be a whole number of at least 1, e.g. npm run test:stress -- 10; got ${process.argv[2]}`,
  );
  process.exit(2);
}

const BUSY_LOOP = 'for (;;) {}';

function startLoad() {
  const hasStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
  const children = hasStressNg
    ? [spawn('stress-ng', ['--cpu', '2', '--quiet'], { stdio: 'ignore' })]
    : [0, 1].map(() => spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: 'ignore' }));
  console.log(`load: ${hasStressNg ? 'stress-ng --cpu 2' : 'two node busy loops'}`);
  return () => {
    for (const child of children) child.kill('SIGKILL');
  };
}

/** The first run builds (`pretest`); the later ones test the same build. */
function npmTest(first) {
  const args = first ? ['test'] : ['test', '--ignore-scripts'];
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: root, stdio: 'inherit' });
    child.once('exit', (code, signal) => resolve(code ?? signal));
  });
}

const stopLoad = startLoad();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopLoad();
    process.exit(130);
  });
}

let passed = 0;
let failure = null;
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  console.log(`\n=== stress run ${run} of ${runs}`);
  const outcome = await npmTest(run === 1);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (outcome !== 0) {
    failure = `run ${run} failed (${outcome}) after ${seconds} s`;
    break;
  }
  passed++;
  console.log(`=== stress run ${run} passed in ${seconds} s`);
}
stopLoad();
console.log(`\n${passed} of ${runs} runs passed under load${failure ? `; ${failure}` : ''}.`);
process.exit(failure ? 1 : 0);
