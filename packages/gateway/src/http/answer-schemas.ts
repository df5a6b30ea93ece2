// Every API route declares its answer with a schema (the SDK's, where a client reads it), so the
// OpenAPI document, the response serializer and the clients hold one contract. The routes below
// answer something other than one JSON document, and say what instead.
import type { RouteOptions } from 'fastify';

/** `METHOD url` → what the route answers instead of a JSON document. */
export const ANSWERS_WITHOUT_SCHEMA: Readonly<Record<string, string>> = {
  'GET /metrics': 'Prometheus text exposition, for scrapers',
  'GET /api/admin/v1/users-export': 'CSV or NDJSON streamed in chunks, rows in the SDK exportRow',
  'GET /api/admin/v1/invitations-export':
    'CSV or NDJSON streamed in chunks, rows in the SDK exportRow',
  'GET /api/calendar/:file':
    'an iCalendar document (text/calendar), what calendar apps subscribe to',
  'POST /api/webhooks/twilio/inbound': "an empty TwiML document, Twilio's format",
  'POST /api/webhooks/twilio/status': 'an empty 204, which is all Twilio reads',
};

/** The routes checked: the API and the metrics endpoint; web pages and static files are not. */
function isChecked(url: string): boolean {
  return url.startsWith('/api/') || url === '/metrics';
}

/** `METHOD url` of each checked route that declares no answer and is not listed above. */
function routesWithoutAnswer(routes: readonly RouteOptions[]): string[] {
  const missing: string[] = [];
  for (const route of routes) {
    const schema = route.schema as { response?: object; hide?: boolean } | undefined;
    if (!isChecked(route.url) || schema?.hide || schema?.response) continue;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD beside each GET; it answers the GET's headers.
      if (method === 'HEAD') continue;
      const name = `${method} ${route.url}`;
      if (!(name in ANSWERS_WITHOUT_SCHEMA)) missing.push(name);
    }
  }
  return missing;
}

/** Fails the start (at ready, once every route is registered) on a route without an answer. */
export function requireAnswerSchemas(
  app: { addHook(name: 'onReady', hook: () => Promise<void>): unknown },
  routes: readonly RouteOptions[],
): void {
  app.addHook('onReady', async () => {
    const missing = routesWithoutAnswer(routes);
    if (missing.length > 0) {
      throw new Error(
        `Routes without an answer schema (schema.response): ${missing.join('; ')}. Declare each answer with the SDK's schema, or list a non-JSON answer in http/answer-schemas.ts.`,
      );
    }
  });
}
