// The payments sweep looks for drivers in good standing whose paid-up time has run out. Without an
// index it read every user each minute, and on the embedded database's one connection every
// other query waited for it (docs/operations.md, 'Backpressure').
export default `
CREATE INDEX users_lapsing ON users (expiration_ts, id)
  WHERE good_standing AND expiration_ts IS NOT NULL;
`;
