// Support requests: the signed-in driver's own (ask, list) and the admin inbox (list, answer).
import {
  type NewSupportRequest,
  type SupportReply,
  type SupportRequest,
  type SupportStatus,
  supportRequestResponseSchema,
  supportRequestsResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/support';
const ADMIN_PATH = '/api/flex/v1/admin/support';

export function driverSupportResource(http: Requester) {
  return {
    /** Sends a request to staff; name and phone come from the account. */
    async askSupport(
      request: NewSupportRequest,
      options?: RequestOptions,
    ): Promise<SupportRequest> {
      return (await http.post(PATH, supportRequestResponseSchema, request, options)).Item;
    },
    /** The driver's own requests, newest first, with staff's answers. */
    async supportRequests(options?: RequestOptions): Promise<SupportRequest[]> {
      return (await http.get(PATH, supportRequestsResponseSchema, options)).Items;
    },
  };
}

export function adminSupportResource(http: Requester) {
  return {
    /** Open requests oldest first (who waited longest), or answered ones newest first. */
    async supportInbox(status: SupportStatus, options?: RequestOptions): Promise<SupportRequest[]> {
      return (
        await http.get(`${ADMIN_PATH}?status=${status}`, supportRequestsResponseSchema, options)
      ).Items;
    },
    async answerSupport(
      id: string,
      reply: SupportReply,
      options?: RequestOptions,
    ): Promise<SupportRequest> {
      return (
        await http.post(
          `${ADMIN_PATH}/${encodeURIComponent(id)}/reply`,
          supportRequestResponseSchema,
          reply,
          options,
        )
      ).Item;
    },
  };
}
