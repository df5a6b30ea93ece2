// The send jobs started from this browser tab, with their progress polled from the gateway, for
// the notifications screen's first section.
import type { SendJob } from '@blockcatch/sdk';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { gateway } from '../../sdk.js';

const STORAGE_KEY = 'admin.sendJobs';
const MAX_JOBS = 5;
const POLL_MS = 2000;

const listeners = new Set<() => void>();
let jobIds: string[] = readStored();

function readStored(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Called after a send is queued: the newest job first, the oldest forgotten past five. */
export function rememberSendJob(jobId: string): void {
  jobIds = [jobId, ...jobIds.filter((id) => id !== jobId)].slice(0, MAX_JOBS);
  window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(jobIds));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type JobView = { jobId: string; job: SendJob | null; failed: boolean };

/** Each remembered job with its latest progress; polling stops once every job is done. */
export function useRecentSendJobs(): JobView[] {
  const ids = useSyncExternalStore(subscribe, () => jobIds);
  const [jobs, setJobs] = useState<Record<string, JobView>>({});

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const views = await Promise.all(
        ids.map(async (jobId): Promise<JobView> => {
          try {
            return { jobId, job: await gateway.sendJob(jobId), failed: false };
          } catch {
            return { jobId, job: null, failed: true };
          }
        }),
      );
      if (!live) return;
      setJobs(Object.fromEntries(views.map((v) => [v.jobId, v])));
      if (views.some((v) => v.job && !v.job.done)) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [ids]);

  return ids.map((jobId) => jobs[jobId] ?? { jobId, job: null, failed: false });
}
