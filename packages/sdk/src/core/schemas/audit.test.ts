import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startsLikeFormula } from '../csv.js';
import { readLine } from '../csv-reader.test-helper.js';
import { AUDIT_ACTIONS, type AuditEvent, auditCsvLine } from './audit.js';

const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: 7,
  at: Date.UTC(2026, 10, 26, 9, 30),
  actorId: 'u1',
  actorName: 'Ana',
  actorPhone: '+12025550100',
  action: 'refund.create',
  target: 'pay_1',
  detail: { weeks: 1 },
  ip: '127.0.0.1',
  tokenId: null,
  ...over,
});

describe('auditCsvLine', () => {
  it('writes one record of nine fields whatever a name, target or detail holds, none readable as a formula', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.string(),
        fc.constantFrom(...AUDIT_ACTIONS),
        (name, target, reason, action) => {
          const line = auditCsvLine(event({ actorName: name, target, action, detail: { reason } }));
          const fields = readLine(line);
          expect(fields).toHaveLength(9);
          expect(fields[4]).toBe(action);
          // Every field is safe to open: none starts like a formula unless it is a plain E.164
          // number (a phone, or a target that looks like one), which a spreadsheet reads as a number.
          for (const field of fields) {
            expect(startsLikeFormula(field) && !/^\+\d{1,15}$/.test(field)).toBe(false);
          }
        },
      ),
    );
  });

  it("prefixes a name that starts like a formula with ' and keeps the time in UTC", () => {
    const fields = readLine(auditCsvLine(event({ actorName: '=cmd|calc' })));
    expect(fields[1]).toBe('2026-11-26T09:30:00.000Z');
    expect(fields[2]).toBe("'=cmd|calc");
  });
});
