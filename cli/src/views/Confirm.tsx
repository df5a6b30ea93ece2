// The confirmation before a send: 'Are you sure you want to send this message to N users?'.
import { Box, Text, useInput } from 'ink';
import type { Translate } from '../i18n.js';
import type { Intent } from './send-flow-state.js';

export interface ConfirmProps {
  t: Translate;
  count: number;
  onIntent: (intent: Intent) => void;
}

export function Confirm({ t, count, onIntent }: ConfirmProps) {
  // The run's language says which answers mean yes and no: y/yes, and s/sí in Spanish.
  const yes = new Set(t('cli.review.yesAnswers').split(','));
  const no = new Set(t('cli.review.noAnswers').split(','));
  useInput((input, key) => {
    const answer = input.trim().toLowerCase();
    if (key.return || yes.has(answer)) onIntent({ type: 'confirm' });
    else if (key.escape || no.has(answer)) onIntent({ type: 'back' });
  });
  return (
    <Box flexDirection="column">
      <Text bold>{t('admin.sendSms.confirm', { count })}</Text>
      <Text dimColor>{t('cli.review.confirmKeys')}</Text>
    </Box>
  );
}
