// A lint fixture: imports one of lib.ts's two exports, so the other is dead.
import { usedEverywhere } from './lib.js';

console.log(usedEverywhere());
