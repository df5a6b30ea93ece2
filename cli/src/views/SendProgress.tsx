// The send under way: a bar over the recipients acknowledged so far, then the result line.
import { Box, Text } from 'ink';
import type { Translate } from '../i18n.js';
import type { Progress } from './send-flow-state.js';

const WIDTH = 30;

export interface SendProgressProps {
  t: Translate;
  progress: Progress | null;
}

export function SendProgress({ t, progress }: SendProgressProps) {
  const done = progress?.done ?? 0;
  const total = progress?.total ?? 0;
  const filled = total === 0 ? 0 : Math.round((done / total) * WIDTH);
  return (
    <Box flexDirection="column">
      <Text>{t('admin.sendSms.sending')}</Text>
      <Text>
        {'█'.repeat(filled)}
        {'░'.repeat(WIDTH - filled)} {total === 0 ? 0 : Math.round((done / total) * 100)}%
      </Text>
      {progress ? <Text dimColor>{t('cli.send.progress', { sent: done, total })}</Text> : null}
    </Box>
  );
}

export interface SendResultProps {
  outcome: string;
  failed: boolean;
}

export function SendResult({ outcome, failed }: SendResultProps) {
  return <Text color={failed ? 'red' : 'green'}>{outcome}</Text>;
}
