// Send jobs, their reports, and who may approve them.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';
import { jobsRefetchInterval } from './send-jobs.js';

/** How many recent send jobs the admin screens list. */
const RECENT_SEND_JOBS = 10;
/** How many recipients of a job are read to explain its failures. */
export const REPORT_RECIPIENTS = 1000;

export const sendQueries = {
  /** Listed by the gateway (every admin's sends), asked again while one is sending or due. */
  sendJobs: () =>
    queryOptions({
      queryKey: ['admin', 'sendJobs'],
      queryFn: () => gateway.sends.list({ limit: RECENT_SEND_JOBS }),
      refetchInterval: (query) => jobsRefetchInterval(query.state.data, Date.now()),
    }),
  /** A job's first recipients with their errors, to say why some were not delivered. */
  sendJobReport: (id: string, version: string) =>
    queryOptions({
      queryKey: ['admin', 'sendJobs', id, version],
      queryFn: () => gateway.sends.show(id, { limit: REPORT_RECIPIENTS }),
    }),
  /** Every admin and whether they may approve sends (owners only). */
  approvers: () =>
    queryOptions({
      queryKey: ['admin', 'approvals', 'approvers'],
      queryFn: () => gateway.approvals.approvers(),
    }),
};
