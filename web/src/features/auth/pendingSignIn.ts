// The phone and password of a sign-up waiting for its code, so that confirming it also signs the
// driver in. Kept in memory only: a password never goes into history state or storage.
let pending: { phone: string; password: string } | null = null;

export function rememberPendingSignIn(phone: string, password: string): void {
  pending = { phone, password };
}

/** The credentials for `phone`, once: they are forgotten as they are read. */
export function takePendingSignIn(phone: string): { phone: string; password: string } | null {
  const found = pending?.phone === phone ? pending : null;
  pending = null;
  return found;
}
