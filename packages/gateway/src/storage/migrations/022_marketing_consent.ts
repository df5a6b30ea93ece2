// Consent to marketing texts, kept as carriers and the law ask: the current answer per number
// (marketing goes only to numbers whose answer is yes) and every answer ever given, with when, how
// (the sign-up box, the settings switch, a START reply), the version of the text shown and its
// words. Existing users get no consent: nobody was asked before this, so they are asked in settings.
// Recipients skipped for no consent or for the weekly marketing cap get their own states, and the
// cap counts a number's marketing messages through a partial index.
export default `
CREATE TABLE marketing_consents (
  phone_number text PRIMARY KEY,
  consented boolean NOT NULL,
  method text NOT NULL CHECK (method IN ('sign-up', 'settings', 'start-reply')),
  text_version text,
  words text NOT NULL,
  recorded_ts bigint NOT NULL
);

CREATE TABLE marketing_consent_history (
  id bigserial PRIMARY KEY,
  phone_number text NOT NULL,
  consented boolean NOT NULL,
  method text NOT NULL,
  text_version text,
  words text NOT NULL,
  recorded_ts bigint NOT NULL
);
CREATE INDEX marketing_consent_history_number ON marketing_consent_history (phone_number, id);

ALTER TABLE send_recipients DROP CONSTRAINT send_recipients_status_check;
ALTER TABLE send_recipients ADD CONSTRAINT send_recipients_status_check CHECK (
  status IN ('queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled',
             'expired', 'skipped-opted-out', 'skipped-invalid', 'skipped-landline',
             'skipped-no-consent', 'skipped-weekly-cap')
);

CREATE INDEX send_recipients_marketing_number ON send_recipients (to_number, next_attempt_ts)
  WHERE lane = 2 AND status IN ('queued', 'sending', 'sent', 'delivered', 'undelivered');
`;
