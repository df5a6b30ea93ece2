// A WhatsApp template's approval as WhatsApp reports it through Twilio's Content API: only an
// approved template with a content id may be sent (free text is refused outside the 24-hour
// window). Templates from before this have not been checked: `unknown` until the first sync.
export default `
ALTER TABLE whatsapp_templates ADD COLUMN approval_status text NOT NULL DEFAULT 'unknown'
  CHECK (approval_status IN ('approved', 'pending', 'received', 'rejected', 'paused', 'disabled',
                             'unsubmitted', 'unknown'));
ALTER TABLE whatsapp_templates ADD COLUMN rejection_reason text;
ALTER TABLE whatsapp_templates ADD COLUMN approval_checked_ts bigint;
`;
