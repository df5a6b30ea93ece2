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
  useInput((input, key) => {
    if (key.return || input === 'y') onIntent({ type: 'confirm' });
    else if (key.escape || input === 'n') onIntent({ type: 'back' });
  });
  return (
    <Box flexDirection="column">
      <Text bold>{t('admin.sendSms.confirm', { count })}</Text>
      <Text dimColor>{t('cli.review.confirmKeys')}</Text>
    </Box>
  );
}
