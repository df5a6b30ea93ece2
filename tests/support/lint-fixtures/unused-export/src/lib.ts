// A lint fixture: `forgottenHelper` is exported and imported by nothing.
export function usedEverywhere(): number {
  return 1;
}

export function forgottenHelper(): number {
  return 2;
}
