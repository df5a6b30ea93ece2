// Each admin send's results once they can no longer change (every recipient final, its opt-out
// window closed): read by the Sends page's weekly results instead of counting 100,000 rows a send.
export default `
CREATE TABLE send_job_results (
  job_id text PRIMARY KEY REFERENCES send_jobs (id) ON DELETE CASCADE,
  computed_ts bigint NOT NULL,
  recipients integer NOT NULL,
  delivered integer NOT NULL,
  failed integer NOT NULL,
  failed_by_reason jsonb NOT NULL,
  opted_out integer NOT NULL,
  billable integer NOT NULL,
  segments integer NOT NULL
);
`;
