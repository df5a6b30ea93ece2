// Reads the --only and --exclude files: csv-parse splits the rows, the SDK checks each phone. A bad
// row is reported by line and skipped; a file csv-parse cannot read stops the send (usage error).
import { readFileSync } from 'node:fs';
import { collectPhones, findPhoneColumn, type PhoneRowProblem } from '@blockcatch/sdk';
import { parse } from 'csv-parse/sync';
import { UsageError } from './errors.js';
import { t } from './i18n.js';

export interface PhoneFile {
  flag: '--only' | '--exclude';
  file: string;
  phones: Set<string>;
  problems: PhoneRowProblem[];
}

export function readPhoneFile(flagName: PhoneFile['flag'], file: string): PhoneFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      t('cli.errors.unreadableFile', {
        flag: flagName,
        file: JSON.stringify(file),
        reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
        fix: t('cli.errors.phoneFileFix'),
      }),
    );
  }
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim()),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
    }) as unknown as typeof records;
  } catch (error) {
    throw new UsageError(
      t('cli.errors.notCsv', {
        flag: flagName,
        file: JSON.stringify(file),
        reason: (error as Error).message,
      }),
    );
  }
  const headers = records[0] ? Object.keys(records[0].record) : firstLineHeaders(text);
  const column = findPhoneColumn(headers);
  if (!column) {
    throw new UsageError(
      t('cli.errors.noPhoneColumn', {
        flag: flagName,
        file: JSON.stringify(file),
        headers: headers.join(', ') || t('cli.errors.noHeaders'),
      }),
    );
  }
  const list = collectPhones(
    records.map(({ record, info }) => ({ line: info.lines, record })),
    column,
  );
  return { flag: flagName, file, phones: new Set(list.phones), problems: list.problems };
}

function firstLineHeaders(text: string): string[] {
  const line = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return line
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
}
