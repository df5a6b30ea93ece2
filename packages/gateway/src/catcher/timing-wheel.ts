// One timer for many due times, each item a small integer (a slot): a hashed timing wheel of 1 ms
// ticks whose buckets are doubly linked lists kept in typed arrays, so scheduling, moving and
// cancelling cost the same with 10 items or 100,000, and the items cost 16 bytes each and no
// object. A due time past the wheel's turn waits in its bucket for the turns in between. The
// catcher keeps every driver's next poll here.

export interface TimingWheel {
  /** (Re)schedules `slot` at `at` (epoch ms), moving it if it was already waiting. */
  schedule(slot: number, at: number): void;
  /** Takes `slot` out if it was waiting (also when it is about to fire in this turn). */
  cancel(slot: number): void;
  isScheduled(slot: number): boolean;
  /** When `slot` is due; meaningful while it is scheduled. */
  dueAt(slot: number): number;
  readonly size: number;
  /** Cancels everything and the timer. */
  clear(): void;
}

export interface TimingWheelOptions {
  /**
   * Called for each slot that came due, once it has left the wheel, with the clock's reading the
   * turn fired by (a caller that needs the time has it without reading the clock again).
   */
  fire(slot: number, at: number): void;
  now?: () => number;
  /** Slots fired per turn of the event loop, so a crowd of due slots never blocks it long. */
  perTurn?: number;
  /** Buckets, a power of two: the ticks one turn of the wheel covers. */
  buckets?: number;
}

/** `prev` of a slot not waiting. */
const NONE = -1;
/** `prev` of a slot taken out of its bucket to fire in this turn. */
const FIRING = -2;
/** `prev` of a bucket's first slot is HEAD - bucket. */
const HEAD = -3;
/** Typed arrays grow by this many slots, so the slack stays small. */
const GROWTH = 16_384;

export function createTimingWheel(options: TimingWheelOptions): TimingWheel {
  const now = options.now ?? Date.now;
  const perTurn = options.perTurn ?? 2000;
  const bucketCount = options.buckets ?? 4096;
  if (bucketCount & (bucketCount - 1)) throw new Error('buckets must be a power of two');
  const mask = bucketCount - 1;
  const heads = new Int32Array(bucketCount).fill(NONE);
  let due = new Float64Array(0);
  let next = new Int32Array(0);
  let prev = new Int32Array(0);
  let size = 0;
  /** Every tick before it has been fired. */
  let cursor = Math.floor(now());
  let timer: NodeJS.Timeout | null = null;
  let armedTick = Number.POSITIVE_INFINITY;
  let draining = false;
  let firing = new Int32Array(Math.min(perTurn, 65_536));

  function ensure(slot: number): void {
    if (slot < due.length) return;
    const length = (Math.floor(slot / GROWTH) + 1) * GROWTH;
    const grownDue = new Float64Array(length);
    grownDue.set(due);
    const grownNext = new Int32Array(length).fill(NONE);
    grownNext.set(next);
    const grownPrev = new Int32Array(length).fill(NONE);
    grownPrev.set(prev);
    due = grownDue;
    next = grownNext;
    prev = grownPrev;
  }

  function link(slot: number, tick: number): void {
    const bucket = tick & mask;
    const first = heads[bucket]!;
    next[slot] = first;
    prev[slot] = HEAD - bucket;
    if (first !== NONE) prev[first] = slot;
    heads[bucket] = slot;
    size++;
  }

  /** Takes a waiting slot out of its bucket, leaving `prev` as `mark`. */
  function unlink(slot: number, mark: number): void {
    const before = prev[slot]!;
    const after = next[slot]!;
    if (before <= HEAD) heads[HEAD - before] = after;
    else next[before] = after;
    if (after !== NONE) prev[after] = before;
    next[slot] = NONE;
    prev[slot] = mark;
    size--;
  }

  function arm(tick: number): void {
    if (timer && armedTick <= tick) return;
    if (timer) clearTimeout(timer);
    armedTick = tick;
    timer = setTimeout(drain, Math.max(0, tick - now()));
  }

  function disarm(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    armedTick = Number.POSITIVE_INFINITY;
  }

  /** The first tick from the cursor on whose bucket holds a slot (perhaps due a turn later). */
  function nextBusyTick(): number {
    for (let tick = cursor; tick < cursor + bucketCount; tick++) {
      if (heads[tick & mask] !== NONE) return tick;
    }
    return Number.POSITIVE_INFINITY;
  }

  function drain(): void {
    timer = null;
    armedTick = Number.POSITIVE_INFINITY;
    const at = now();
    const last = Math.floor(at);
    // The clock went back: the buckets ahead are still where their slots wait.
    if (last < cursor) cursor = last;
    draining = true;
    let fired = 0;
    try {
      while (cursor <= last && fired < perTurn) {
        // Take this bucket's due slots out first: firing one may move or cancel another.
        let count = 0;
        let slot = heads[cursor & mask]!;
        while (slot !== NONE && fired + count < perTurn) {
          const after = next[slot]!;
          if (due[slot]! <= at) {
            unlink(slot, FIRING);
            if (count === firing.length) {
              const grown = new Int32Array(count * 2);
              grown.set(firing);
              firing = grown;
            }
            firing[count++] = slot;
          }
          slot = after;
        }
        for (let i = 0; i < count; i++) {
          const item = firing[i]!;
          // Cancelled or moved by an earlier slot's fire.
          if (prev[item] !== FIRING) continue;
          prev[item] = NONE;
          fired++;
          options.fire(item, at);
        }
        // Stopped in the middle of the bucket: the rest of it on the next turn.
        if (slot !== NONE) break;
        cursor++;
      }
    } finally {
      draining = false;
    }
    if (size === 0) return;
    if (cursor <= last) {
      // More came due than one turn fires: the rest on the next turn, after pending I/O.
      arm(cursor);
      return;
    }
    arm(nextBusyTick());
  }

  return {
    schedule(slot, at) {
      ensure(slot);
      if (prev[slot]! >= 0 || prev[slot]! <= HEAD) unlink(slot, NONE);
      due[slot] = at;
      // Never into a bucket the drain under way has passed or is firing.
      const tick = Math.max(Math.floor(at), draining ? cursor + 1 : cursor);
      link(slot, tick);
      if (!draining) arm(tick);
    },
    cancel(slot) {
      if (slot >= prev.length) return;
      const state = prev[slot]!;
      if (state === FIRING) prev[slot] = NONE;
      if (state === NONE || state === FIRING) return;
      unlink(slot, NONE);
      if (size === 0) disarm();
    },
    isScheduled: (slot) => slot < prev.length && (prev[slot]! >= 0 || prev[slot]! <= HEAD),
    dueAt: (slot) => due[slot] ?? Number.NaN,
    get size() {
      return size;
    },
    clear() {
      for (let bucket = 0; bucket < bucketCount; bucket++) {
        let slot = heads[bucket]!;
        while (slot !== NONE) {
          const after = next[slot]!;
          next[slot] = NONE;
          prev[slot] = NONE;
          slot = after;
        }
        heads[bucket] = NONE;
      }
      prev.fill(NONE);
      size = 0;
      disarm();
    },
  };
}
