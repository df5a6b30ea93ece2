// The message as the review shows it: the SMS text, or the template's header and body.

import type { ComposedMessage } from './send-request.js';
import { templatePreview } from './send-request.js';

export function MessagePreview({ composed }: { composed: ComposedMessage }) {
  return (
    <p className="message-text">
      {composed.channel === 'sms' ? composed.message : templatePreview(composed.template)}
    </p>
  );
}
