// A tracked link's counted click is stamped when it happens (within 7 days of the recipient's text),
// with the recipient's number, so a send's results read its opened links alone: no lookup of the
// recipient per click (docs/architecture.md, 'Send jobs'). Clicks before this had no window to judge.
export default `
ALTER TABLE send_links
  ADD COLUMN counted_ts bigint,
  ADD COLUMN to_number text;

UPDATE send_links l SET counted_ts = l.first_click_ts, to_number = r.to_number
  FROM send_recipients r
 WHERE l.first_click_ts IS NOT NULL AND r.job_id = l.job_id AND r.seq = l.seq
   AND l.first_click_ts < r.sent_ts + 604800000;

DROP INDEX send_links_opened;
CREATE INDEX send_links_counted ON send_links (job_id, seq, to_number, counted_ts)
  WHERE counted_ts IS NOT NULL;
`;
