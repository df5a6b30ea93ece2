// A lint fixture: first.ts and second.ts need each other through a type-only import.
import type { Second } from './second.js';

export interface First {
  next: Second | null;
}
