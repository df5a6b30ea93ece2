// Step 2 of the interactive send, the review: recipient count, the message and its preview for the
// first selected recipient, a search box, a table with a checkbox per row ('[-]' and struck through,
// with the reason, for a number that cannot be sent to), 'Page N', rows per page, Cancel and Send.
import type { Page } from '@blockcatch/sdk';
import { Box, Text } from 'ink';
import type { Translate } from '../i18n.js';
import type { BlockedReason, FlowState, ReviewRow } from './send-flow-state.js';

export interface ReviewColumn {
  key: string;
  title: string;
}

export interface ReviewProps {
  t: Translate;
  page: Page<ReviewRow>;
  columns: readonly ReviewColumn[];
  /** Columns left out to fit the terminal. */
  hidden?: number;
  /** Each column's width on this terminal (fitColumns). */
  widths: readonly number[];
  state: Pick<FlowState, 'focus' | 'search' | 'cursor' | 'deselected' | 'rowsPerPage' | 'notice'>;
  total: number;
  selected: number;
  message: readonly string[];
  /**
   * The message as the first selected recipient will read it once the gateway rendered it, null
   * while it is asked for; no line when there is no preview to ask for.
   */
  preview?: { name: string; text: string } | null | undefined;
}

const REASON_KEYS: Record<BlockedReason, string> = {
  'opted-out': 'cli.send.reasons.optedOut',
  invalid: 'cli.send.reasons.invalid',
  landline: 'cli.send.reasons.landline',
  'no-consent': 'cli.send.reasons.noConsent',
  'weekly-cap': 'cli.send.reasons.weeklyCap',
};

/** Columns a struck-through row keeps (name and phone); the reason takes the rest of the row. */
const KEPT_WHEN_BLOCKED = 2;

export function Review({
  t,
  page,
  columns,
  hidden = 0,
  widths,
  state,
  total,
  selected,
  message,
  preview,
}: ReviewProps) {
  const searching = state.focus === 'search';
  return (
    <Box flexDirection="column">
      <Text bold>
        {t('admin.sendSms.recipients', { count: total })} ·{' '}
        {t('cli.review.selected', { count: selected })}
      </Text>
      {message.map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      {preview === undefined ? null : (
        <Text wrap="truncate-end" dimColor={!preview}>
          {preview
            ? t('cli.review.preview', {
                name: preview.name,
                text: preview.text.replace(/\s+/g, ' '),
              })
            : t('cli.review.previewPending')}
        </Text>
      )}
      <Box>
        <Text color={searching ? 'cyan' : undefined}>{searching ? '› ' : '  '}</Text>
        <Text dimColor={state.search === ''}>
          {state.search === '' ? t('admin.userTable.searchUser') : state.search}
          {searching ? '▏' : ''}
        </Text>
      </Box>
      <Text bold>
        {'    '}
        {columns.map((c, i) => fit(c.title, widths[i] ?? 0)).join(' ')}
      </Text>
      {page.items.length === 0 ? (
        <Text> {t('admin.userTable.noResults')}</Text>
      ) : (
        page.items.map((row, index) => {
          const here = !searching && index === state.cursor;
          if (row.blocked) {
            const kept = Math.min(KEPT_WHEN_BLOCKED, columns.length);
            const rest = widths.slice(kept).reduce((sum, w) => sum + w + 1, 0);
            return (
              <Text key={row.phone} inverse={here}>
                {here ? '>' : ' '}
                {'[-]'}
                <Text strikethrough dimColor>
                  {columns
                    .slice(0, kept)
                    .map((c, i) => fit(row.cells[c.key] ?? '', widths[i] ?? 0))
                    .join(' ')}
                </Text>{' '}
                {rest > 1
                  ? fit(t(REASON_KEYS[row.blocked]), rest - 1)
                  : t(REASON_KEYS[row.blocked])}
              </Text>
            );
          }
          const box = state.deselected.has(row.phone) ? '[ ]' : '[x]';
          return (
            <Text key={row.phone} inverse={here}>
              {here ? '>' : ' '}
              {box}
              {columns.map((c, i) => fit(row.cells[c.key] ?? '', widths[i] ?? 0)).join(' ')}
            </Text>
          );
        })
      )}
      <Text>
        {t('admin.userTable.page', { page: page.page })} / {page.pageCount} ·{' '}
        {t('admin.userTable.rowsPerPage')}: {state.rowsPerPage}
      </Text>
      <Text>
        [{t('common.cancel')}] [{t('common.send')}]
      </Text>
      {hidden > 0 ? <Text dimColor>{t('cli.review.hidden', { count: hidden })}</Text> : null}
      {state.notice ? <Text color="yellow">{t(`cli.review.${state.notice}`)}</Text> : null}
      <Text dimColor>{t(searching ? 'cli.review.searchKeys' : 'cli.review.tableKeys')}</Text>
    </Box>
  );
}

function fit(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text.padEnd(width + text.length - chars.length);
  return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`;
}

/**
 * Lines of the review around its rows: count, preview, search, header, paging, buttons, columns
 * left out, a notice, keys.
 */
export function reviewChrome(messageLines: number): number {
  return messageLines + 10;
}

/** The row prefix: cursor and checkbox. */
export const ROW_PREFIX = 4;
