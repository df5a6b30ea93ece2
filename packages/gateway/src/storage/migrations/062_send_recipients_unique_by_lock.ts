// A job's numbers stay unique without an index of their own: a new job's are written once each,
// and those added to a job are checked against it while its row is locked
// (storage/send-job-create.ts). Keeping the index cost about a third of a 100,000-recipient insert
// on PostgreSQL and a fifth on PGlite (docs/operations.md, "Performance and load").
export default `
DROP INDEX send_recipients_job_number;
`;
