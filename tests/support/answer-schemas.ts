// The lint's check that every API route declares its answer: it builds the gateway's whole route
// table (an in-memory database, no port), which fails at ready on a route without an answer schema,
// and fails too on a listed non-JSON answer the gateway no longer serves.
import { ANSWERS_WITHOUT_SCHEMA } from '../../packages/gateway/src/http/answer-schemas.js';
import { buildGateway } from '../../packages/gateway/src/server.js';

const gateway = await buildGateway({
  port: 0,
  logLevel: 'silent',
  seed: false,
  alerts: { sweepMs: 0 },
});
let failed = false;
try {
  await gateway.app.ready();
  const served = new Set(
    gateway.routes.flatMap((route) => [route.method].flat().map((m) => `${m} ${route.url}`)),
  );
  const stale = Object.keys(ANSWERS_WITHOUT_SCHEMA).filter((name) => !served.has(name));
  if (stale.length > 0) {
    console.error(`Listed as answering without a schema, but not served: ${stale.join('; ')}.`);
    failed = true;
  } else {
    console.log(`${served.size} routes: every API answer is declared.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  await gateway.close();
}
process.exitCode = failed ? 1 : 0;
