// Opt-outs kept per sender, as carriers apply them: with separate account and marketing senders, a
// STOP to the marketing number stops marketing only (opt_outs still holds the ones that stop
// everything). HELP is answered once per number per day.
export default `
CREATE TABLE sender_opt_outs (
  phone_number text NOT NULL,
  sender text NOT NULL,
  opted_out_ts bigint NOT NULL,
  PRIMARY KEY (phone_number, sender)
);

CREATE TABLE help_answers (
  phone_number text NOT NULL,
  day text NOT NULL,
  PRIMARY KEY (phone_number, day)
);
`;
