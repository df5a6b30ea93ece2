// The driver's private calendar address (/api/flex/v1/calendar-feed): whether there is one, a new
// one (shown once, revoking the one before) and turning it off.
import {
  type CalendarFeedCreated,
  type CalendarFeedState,
  calendarFeedCreatedSchema,
  calendarFeedStateSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/calendar-feed';

export function calendarFeedResource(http: Requester) {
  return {
    async calendarFeed(options?: RequestOptions): Promise<CalendarFeedState> {
      return http.get(PATH, calendarFeedStateSchema, options);
    },
    /** The address is in the answer only: keep it, or make another later. */
    async createCalendarFeed(options?: RequestOptions): Promise<CalendarFeedCreated> {
      return http.post(PATH, calendarFeedCreatedSchema, {}, options);
    },
    async revokeCalendarFeed(options?: RequestOptions): Promise<void> {
      await http.delete(PATH, calendarFeedStateSchema, options);
    },
  };
}
