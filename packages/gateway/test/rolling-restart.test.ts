// A rolling restart as a deployment does one: two gateway processes on one PostgreSQL behind a load
// balancer that routes on /api/status/ready, steady traffic, and each process given SIGTERM and
// started again in turn, twice over. No request fails, and every process exits 0 by itself.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { type Balancer, startBalancer } from './helpers/balancer.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { startGateway } from './helpers/gateway.js';
import {
  freePort,
  type GatewayProcess,
  PUBLIC_URL,
  startGatewayProcess,
} from './helpers/gateway-process.js';
import { ADMIN } from './helpers/people.js';

const schema = uniqueSchema();
// All traffic comes from one address through the balancer: the request limit is not under test.
const env = { BLOCKCATCH_RATE_LIMIT_PER_MINUTE: '1000000' };
const processes: GatewayProcess[] = [];
let balancer: Balancer | undefined;
let adminAuth: { authorization: string };

beforeAll(async () => {
  // People and a token, made by a gateway in this process on the shared schema, then closed.
  const setup = await startGateway({
    databaseUrl: POSTGRES_URL,
    databaseSchema: schema,
    publicUrl: PUBLIC_URL,
  });
  adminAuth = setup.as(ADMIN);
  await setup.gateway.close();
});

afterAll(async () => {
  await balancer?.close();
  for (const gateway of processes) {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) {
      await gateway.stop('SIGKILL');
    }
  }
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

/** `clients` callers reading through the balancer back to back until stopped (bounded). */
function steadyTraffic(url: string, clients: number) {
  let running = true;
  let served = 0;
  const failures: string[] = [];
  const loops = Array.from({ length: clients }, async () => {
    while (running && served + failures.length < 100_000) {
      try {
        const response = await fetch(`${url}/api/flex/v1/user`, { headers: adminAuth });
        const body = await response.text();
        if (response.status === 200) served++;
        else failures.push(`${response.status} ${body.slice(0, 200)}`);
      } catch (error) {
        failures.push(`no answer: ${(error as Error).message}`);
      }
    }
  });
  return {
    served: () => served,
    async stop() {
      running = false;
      await Promise.all(loops);
      return { served, failures };
    },
  };
}

it('serves every request while each of two processes is restarted in turn, twice', async () => {
  const ports = [await freePort(), await freePort()];
  for (const port of ports) processes.push(await startGatewayProcess({ schema, port, env }));
  const backends = processes.map((gateway) => gateway.url);
  balancer = await startBalancer(backends);
  await eventually(() => expect(balancer!.ready()).toEqual(backends), { timeout: 60_000 });

  const traffic = steadyTraffic(balancer.url, 4);
  await eventually(() => expect(traffic.served()).toBeGreaterThan(20));
  const exits: { ms: number; code: number | null; signal: string | null }[] = [];
  for (const round of [1, 2]) {
    for (const [i, port] of ports.entries()) {
      const gateway = processes[i]!;
      const before = traffic.served();
      const stopping = gateway.stop('SIGTERM');
      if (round === 1) {
        // Draining at once: liveness still answers and says so, readiness fails.
        await eventually(async () => {
          const health = await fetch(`${gateway.url}/api/status/health`);
          expect(await health.json()).toEqual({ status: 'draining' });
          const ready = await fetch(`${gateway.url}/api/status/ready`);
          expect(ready.status).toBe(503);
          expect(ready.headers.get('retry-after')).not.toBeNull();
          expect(await ready.json()).toMatchObject({ code: 'unavailable' });
        });
      }
      const exit = await stopping;
      exits.push(exit);
      expect(exit, gateway.output()).toMatchObject({ code: 0, signal: null });
      // It finished on its own, not by the shutdown bound cutting it short.
      expect(gateway.output()).not.toContain('still closing after');
      processes[i] = await startGatewayProcess({ schema, port, env });
      await eventually(() => expect(balancer!.ready()).toContain(gateway.url), {
        timeout: 60_000,
      });
      // Traffic went on through the restart.
      await eventually(() => expect(traffic.served()).toBeGreaterThan(before + 20));
    }
  }
  const { served, failures } = await traffic.stop();

  expect(failures).toEqual([]);
  expect(served).toBeGreaterThan(0);
  process.stdout.write(
    `rolling restart: ${served} requests served, ${failures.length} failed; exits after SIGTERM: ${exits
      .map((exit) => `${exit.ms} ms`)
      .join(', ')}\n`,
  );
}, 420_000);
