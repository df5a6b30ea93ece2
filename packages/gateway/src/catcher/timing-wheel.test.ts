// The timing wheel fires each scheduled slot once, when it is due and in the order of due times,
// whatever the mix of schedules, moves and cancels, also past one turn of the wheel and while it
// fires.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTimingWheel } from './timing-wheel.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const operation = fc.oneof(
  fc.record({ kind: fc.constant('schedule' as const), slot: fc.nat(40), at: fc.nat(5000) }),
  fc.record({ kind: fc.constant('cancel' as const), slot: fc.nat(40) }),
);

describe('the timing wheel', () => {
  it('fires every slot still scheduled exactly once, at its last due time, in due order', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom(4, 64, 4096),
        (ops, perTurn, buckets) => {
          vi.setSystemTime(0);
          const fired: { slot: number; at: number; dueAt: number }[] = [];
          const wheel = createTimingWheel({
            fire: (slot) => fired.push({ slot, at: Date.now(), dueAt: expected.get(slot)! }),
            perTurn,
            buckets,
          });
          const expected = new Map<number, number>();
          for (const op of ops) {
            if (op.kind === 'schedule') {
              wheel.schedule(op.slot, op.at);
              expected.set(op.slot, op.at);
            } else {
              wheel.cancel(op.slot);
              expected.delete(op.slot);
            }
          }
          expect(wheel.size).toBe(expected.size);
          for (const [slot, at] of expected) expect(wheel.dueAt(slot)).toBe(at);
          vi.runAllTimers();
          expect(wheel.size).toBe(0);
          expect(fired.map((f) => f.slot).sort((a, b) => a - b)).toEqual(
            [...expected.keys()].sort((a, b) => a - b),
          );
          for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.dueAt);
          const dues = fired.map((f) => f.dueAt);
          expect(dues).toEqual([...dues].sort((a, b) => a - b));
          wheel.clear();
        },
      ),
    );
  });

  it('lets a firing slot cancel or move another due in the same tick', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.boolean(), (count, move) => {
        vi.setSystemTime(0);
        const fired: number[] = [];
        const wheel = createTimingWheel({
          fire: (slot) => {
            fired.push(slot);
            // The first to fire takes every other slot out, or moves them a second later.
            if (fired.length === 1) {
              for (let other = 0; other < count; other++) {
                if (other === slot) continue;
                if (move) wheel.schedule(other, 1000);
                else wheel.cancel(other);
              }
            }
          },
        });
        for (let slot = 0; slot < count; slot++) wheel.schedule(slot, 10);
        vi.advanceTimersByTime(10);
        expect(fired).toHaveLength(1);
        vi.runAllTimers();
        expect(fired).toHaveLength(move ? count : 1);
        if (move) expect(Date.now()).toBeGreaterThanOrEqual(1000);
      }),
    );
  });

  it('keeps one timer for any number of slots', () => {
    const wheel = createTimingWheel({ fire: () => {} });
    for (let slot = 0; slot < 100_000; slot++) wheel.schedule(slot, 1000 + (slot % 60_000));
    expect(vi.getTimerCount()).toBe(1);
    expect(wheel.size).toBe(100_000);
    wheel.clear();
    expect(vi.getTimerCount()).toBe(0);
    expect(wheel.size).toBe(0);
  });
});
