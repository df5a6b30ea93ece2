// Tracked links of marketing SMS (docs/product.md, 'Tracked links'): one short code per recipient
// per address in the text, what it leads to, and whether and when it was first opened; and the
// clicks, renewals and revenue a send's kept results add. Like send_recipients, job_id has no
// foreign key: rows are written only with their recipients, in their transaction, and a per-row
// check would cost seconds on a 100,000-recipient send.
export default `
CREATE TABLE send_links (
  code text PRIMARY KEY,
  job_id text NOT NULL,
  seq integer NOT NULL,
  url_index smallint NOT NULL,
  url text NOT NULL,
  clicks integer NOT NULL DEFAULT 0,
  first_click_ts bigint,
  UNIQUE (job_id, seq, url_index)
);

-- The results count only opened links: a few rows a send, not one per recipient.
CREATE INDEX send_links_opened ON send_links (job_id, seq, first_click_ts)
  WHERE first_click_ts IS NOT NULL;

ALTER TABLE send_job_results
  ADD COLUMN clicks integer NOT NULL DEFAULT 0,
  ADD COLUMN conversions integer NOT NULL DEFAULT 0,
  ADD COLUMN revenue_cents bigint NOT NULL DEFAULT 0;
`;
