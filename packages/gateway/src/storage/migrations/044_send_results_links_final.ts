// A send's delivery figures are kept once its opt-out week has passed, its tracked links' a week
// later (a click within 7 days of the text, a payment within 7 days of the click): until then a kept
// row's clicks, conversions and revenue are counted again on each read (storage/send-results.ts).
// Rows kept before this were kept only once both had settled.
export default `
ALTER TABLE send_job_results
  ADD COLUMN links_final boolean NOT NULL DEFAULT true,
  ADD COLUMN last_sent_ts bigint;
`;
