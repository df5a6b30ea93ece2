// The driver's system switch (PUT /api/flex/v1/status) and "I've arrived" (POST /arrive).
import {
  type ArriveResult,
  arriveResponseSchema,
  driverStatusResponseSchema,
  type UserStatus,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const BASE = '/api/flex/v1';

export function driverStatusResource(http: Requester) {
  return {
    /** 'start' turns the system on (the catcher searches), 'stop' turns it off. */
    async setStatus(status: UserStatus, options?: RequestOptions): Promise<UserStatus> {
      return (await http.put(`${BASE}/status`, driverStatusResponseSchema, { status }, options))
        .status;
    },
    /** Checks in for the won block under way or next; 409 while the system is off. */
    async arrive(options?: RequestOptions): Promise<ArriveResult> {
      return http.post(`${BASE}/arrive`, arriveResponseSchema, undefined, options);
    },
  };
}
