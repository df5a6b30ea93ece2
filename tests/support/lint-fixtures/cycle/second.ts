// A lint fixture: the other half of the cycle.
import type { First } from './first.js';

export interface Second {
  previous: First;
}
