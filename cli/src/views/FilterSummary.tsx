// Step 1 of the interactive send: what the filters and the message are, and how many they reach.
import { Box, Text } from 'ink';
import type { Translate } from '../i18n.js';

export interface FilterSummaryProps {
  t: Translate;
  filters: ReadonlyArray<readonly [string, string]>;
  message: readonly string[];
  count: number;
}

export function FilterSummary({ t, filters, message, count }: FilterSummaryProps) {
  return (
    <Box flexDirection="column">
      <Text bold>{t('cli.review.filtersTitle')}</Text>
      {filters.length === 0 ? (
        <Text> {t('cli.review.noFilters')}</Text>
      ) : (
        filters.map(([label, value]) => (
          <Text key={label}>
            {'  '}
            {label}: {value}
          </Text>
        ))
      )}
      {message.map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      <Text bold>{t('admin.sendSms.recipients', { count })}</Text>
      <Text dimColor>{t('cli.review.summaryKeys')}</Text>
    </Box>
  );
}
