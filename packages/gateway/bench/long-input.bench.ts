// What one oversized field costs the gateway: `POST /api/flex/v1/platform/sign-in` with an email of
// 50,000 '@' (the attack: a pattern that backtracks over the whole input) beside the same request
// at the field's bound of 254 characters, and how long a health check sent meanwhile waits. Goal:
// the long email is refused within 50 ms, about as fast as one at the bound, and health checks
// sent meanwhile wait no longer. Run alone with `npx tsx --conditions=source packages/gateway/bench/long-input.bench.ts`.
import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { MAX_EMAIL_LENGTH } from '@blockcatch/sdk';
import { signIn } from '../test/helpers/sign-in.js';
import { startLargeGateway } from './large-gateway.js';

const GOAL_MS = 50;
const RUNS = 5;

export async function benchLongInput(): Promise<string[]> {
  const { gateway, url, admin } = await startLargeGateway(0);
  try {
    const token = await signIn(url, gateway.config.clientId, admin.phoneNumber, admin.password);
    /**
     * The median refusal time, and the longest wait of health checks sent while it ran, measured
     * from another process: the gateway's event loop must not be the one timing it.
     */
    const measure = async (email: string) => {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', CLIENT], {
        env: { ...process.env, URL: url, TOKEN: token, EMAIL: email, RUNS: String(RUNS) },
      });
      return JSON.parse(stdout) as { refusal: number; health: number };
    };
    await measure('@'.repeat(MAX_EMAIL_LENGTH));
    const bound = await measure('@'.repeat(MAX_EMAIL_LENGTH));
    const long = await measure('@'.repeat(50_000));
    const met = long.refusal < GOAL_MS && long.health < GOAL_MS;
    return [
      `email of 50,000 '@': refused in ${long.refusal.toFixed(1)} ms, a health check meanwhile ` +
        `waited at most ${long.health.toFixed(1)} ms (goal < ${GOAL_MS} ms each, ${met ? 'met' : 'MISSED'})`,
      `email of ${MAX_EMAIL_LENGTH} '@' (the bound, baseline): refused in ` +
        `${bound.refusal.toFixed(1)} ms, health checks at most ${bound.health.toFixed(1)} ms`,
    ];
  } finally {
    await gateway.close();
  }
}

const run = promisify(execFile);

/** The client: RUNS refusals of EMAIL, with health checks sent every 5 ms while each runs. */
const CLIENT = `
const { URL: url, TOKEN: token, EMAIL: email, RUNS: runs } = process.env;
const refusals = [];
let health = 0;
for (let i = 0; i < Number(runs); i++) {
  const started = performance.now();
  let done = false;
  const refused = fetch(url + '/api/flex/v1/platform/sign-in', {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'pa55word' }),
  }).then(async (response) => {
    await response.text();
    if (response.status !== 400) throw new Error('expected a 400, got ' + response.status);
    refusals.push(performance.now() - started);
    done = true;
  });
  while (!done) {
    const asked = performance.now();
    await (await fetch(url + '/api/status/health')).text();
    health = Math.max(health, performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await refused;
}
refusals.sort((a, b) => a - b);
console.log(JSON.stringify({ refusal: refusals[Math.floor(refusals.length / 2)], health }));
`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchLongInput()) console.log(line);
}
