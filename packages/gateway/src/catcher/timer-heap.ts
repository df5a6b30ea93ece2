// One timer for many due times: a binary min-heap of plain records ordered by `dueAt`, with a
// single setTimeout armed for the earliest. The catcher keeps every driver's next poll here
// instead of a timer and its closure per driver.

export interface HeapItem {
  /** When the item is due (epoch ms); set by `schedule`. */
  dueAt: number;
  /** The item's place in the heap, -1 when not scheduled; kept by the heap. */
  heapIndex: number;
}

export interface TimerHeap<T extends HeapItem> {
  /** (Re)schedules `item` at `at`, moving it if it was already waiting. */
  schedule(item: T, at: number): void;
  /** Takes `item` out if it was waiting. */
  cancel(item: T): void;
  readonly size: number;
  /** Cancels everything and the timer. */
  clear(): void;
}

export interface TimerHeapOptions<T> {
  /** Called for each item that came due, once it has left the heap. */
  fire(item: T): void;
  now?: () => number;
  /** Items fired per turn of the event loop, so a crowd of due items never blocks it long. */
  perTurn?: number;
}

export function createTimerHeap<T extends HeapItem>(options: TimerHeapOptions<T>): TimerHeap<T> {
  const now = options.now ?? Date.now;
  const perTurn = options.perTurn ?? 2000;
  const heap: T[] = [];
  let timer: NodeJS.Timeout | null = null;
  let armedFor = Number.POSITIVE_INFINITY;
  let draining = false;

  const less = (a: T, b: T) => a.dueAt < b.dueAt;

  function place(item: T, index: number): void {
    heap[index] = item;
    item.heapIndex = index;
  }

  function up(index: number): void {
    const item = heap[index]!;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent]!;
      if (!less(item, above)) break;
      place(above, index);
      index = parent;
    }
    place(item, index);
  }

  function down(index: number): void {
    const item = heap[index]!;
    const length = heap.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && less(heap[right]!, heap[left]!) ? right : left;
      if (!less(heap[child]!, item)) break;
      place(heap[child]!, index);
      index = child;
    }
    place(item, index);
  }

  function remove(item: T): void {
    const index = item.heapIndex;
    if (index < 0) return;
    item.heapIndex = -1;
    const last = heap.pop()!;
    if (last === item) return;
    place(last, index);
    if (index > 0 && less(last, heap[(index - 1) >> 1]!)) up(index);
    else down(index);
  }

  function arm(): void {
    if (draining) return;
    const first = heap[0];
    if (!first) {
      if (timer) clearTimeout(timer);
      timer = null;
      armedFor = Number.POSITIVE_INFINITY;
      return;
    }
    if (timer && armedFor <= first.dueAt) return;
    if (timer) clearTimeout(timer);
    armedFor = first.dueAt;
    timer = setTimeout(drain, Math.max(0, first.dueAt - now()));
  }

  function drain(): void {
    timer = null;
    armedFor = Number.POSITIVE_INFINITY;
    draining = true;
    const at = now();
    let fired = 0;
    try {
      while (heap.length > 0 && heap[0]!.dueAt <= at && fired < perTurn) {
        const item = heap[0]!;
        remove(item);
        fired++;
        options.fire(item);
      }
    } finally {
      draining = false;
    }
    if (heap.length > 0 && heap[0]!.dueAt <= at) {
      // More came due than one turn fires: the rest on the next turn, after pending I/O.
      timer = setTimeout(drain, 0);
      armedFor = at;
    } else {
      arm();
    }
  }

  return {
    schedule(item, at) {
      if (item.heapIndex >= 0) remove(item);
      item.dueAt = at;
      heap.push(item);
      up(heap.length - 1);
      arm();
    },
    cancel(item) {
      if (item.heapIndex < 0) return;
      remove(item);
      arm();
    },
    get size() {
      return heap.length;
    },
    clear() {
      for (const item of heap) item.heapIndex = -1;
      heap.length = 0;
      arm();
    },
  };
}
