// GET /api/status/health: polled for the deployment's version id and CDN id, read from headers.
import { z } from 'zod';
import { ResponseShapeError } from '../../errors.js';
import type { Requester, RequestOptions } from '../requester.js';

const HEALTH_PATH = '/api/status/health';

const healthHeadersSchema = z.object({
  'x-amz-version-id': z.string().min(1),
  'x-amz-cf-id': z.string().min(1),
});

export interface Health {
  versionId: string;
  cdnId: string;
}

export function statusResource(http: Requester) {
  return {
    async health(options?: RequestOptions): Promise<Health> {
      // Only the headers matter; the body is whatever the gateway sends.
      const response = await http.request({
        method: 'GET',
        path: HEALTH_PATH,
        schema: z.unknown(),
        ...(options ? { options } : {}),
      });
      const headers = healthHeadersSchema.safeParse(response.headers);
      if (!headers.success) {
        throw ResponseShapeError.fromZod(`GET ${HEALTH_PATH} (headers)`, headers.error);
      }
      return { versionId: headers.data['x-amz-version-id'], cdnId: headers.data['x-amz-cf-id'] };
    },
  };
}
