// The driver's system switch (PUT /api/flex/v1/status) and "I've arrived" (POST /arrive).
import {
  type ArriveResult,
  arriveResponseSchema,
  driverStatusResponseSchema,
  type UserStatus,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

const BASE = '/api/flex/v1';

export function driverStatusResource(http: Requester) {
  return {
    /** 'start' turns the system on (the catcher searches), 'stop' turns it off. */
    async setStatus(status: UserStatus, options?: RequestOptions): Promise<UserStatus> {
      const response = await http.request({
        method: 'PUT',
        path: `${BASE}/status`,
        body: { status },
        schema: driverStatusResponseSchema,
        options,
      });
      return response.data.status;
    },
    /** Checks in for the won block under way or next; 409 while the system is off. */
    async arrive(options?: RequestOptions): Promise<ArriveResult> {
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/arrive`,
        schema: arriveResponseSchema,
        options,
      });
      return response.data;
    },
  };
}
