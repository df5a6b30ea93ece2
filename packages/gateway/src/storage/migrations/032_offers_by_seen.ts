// Reads across every driver's offers by when they were seen (the admin's outcomes across drivers,
// the station insight over the last weeks) use this instead of scanning the table.
export default `
CREATE INDEX driver_offers_by_seen ON driver_offers (seen_ts);
`;
