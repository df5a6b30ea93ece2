// The timer heap fires each scheduled item once, when it is due and in the order of due times,
// whatever the mix of schedules, moves and cancels.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTimerHeap, type HeapItem } from './timer-heap.js';

interface Item extends HeapItem {
  id: number;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const operation = fc.oneof(
  fc.record({ kind: fc.constant('schedule' as const), id: fc.nat(30), at: fc.nat(5000) }),
  fc.record({ kind: fc.constant('cancel' as const), id: fc.nat(30) }),
);

describe('the timer heap', () => {
  it('fires every item still scheduled exactly once, at its last due time, in due order', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        (ops, perTurn) => {
          vi.setSystemTime(0);
          const fired: { id: number; at: number; dueAt: number }[] = [];
          const heap = createTimerHeap<Item>({
            fire: (item) => fired.push({ id: item.id, at: Date.now(), dueAt: item.dueAt }),
            perTurn,
          });
          const items = new Map<number, Item>();
          const expected = new Map<number, number>();
          for (const op of ops) {
            let item = items.get(op.id);
            if (!item) {
              item = { id: op.id, dueAt: 0, heapIndex: -1 };
              items.set(op.id, item);
            }
            if (op.kind === 'schedule') {
              heap.schedule(item, op.at);
              expected.set(op.id, op.at);
            } else {
              heap.cancel(item);
              expected.delete(op.id);
            }
          }
          expect(heap.size).toBe(expected.size);
          vi.runAllTimers();
          expect(heap.size).toBe(0);
          expect(fired.map((f) => f.id).sort((a, b) => a - b)).toEqual(
            [...expected.keys()].sort((a, b) => a - b),
          );
          for (const f of fired) {
            expect(f.dueAt).toBe(expected.get(f.id));
            expect(f.at).toBeGreaterThanOrEqual(f.dueAt);
          }
          const dues = fired.map((f) => f.dueAt);
          expect(dues).toEqual([...dues].sort((a, b) => a - b));
          heap.clear();
        },
      ),
    );
  });

  it('keeps one timer for any number of items', () => {
    const heap = createTimerHeap<Item>({ fire: () => {} });
    for (let id = 0; id < 10_000; id++) heap.schedule({ id, dueAt: 0, heapIndex: -1 }, 1000 + id);
    expect(vi.getTimerCount()).toBe(1);
    heap.clear();
    expect(vi.getTimerCount()).toBe(0);
  });
});
