// The confirmation before a send: 'Are you sure you want to send this message to N users?'.
import { Box, Text } from 'ink';
import type { Translate } from '../i18n.js';

export interface ConfirmProps {
  t: Translate;
  count: number;
}

export function Confirm({ t, count }: ConfirmProps) {
  return (
    <Box flexDirection="column">
      <Text bold>{t('admin.sendSms.confirm', { count })}</Text>
      <Text dimColor>{t('cli.review.confirmKeys')}</Text>
    </Box>
  );
}
