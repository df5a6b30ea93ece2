// The server settings each PostgreSQL connection starts with: the gateway's own, then any the
// operator put in DATABASE_URL's `options`, which pg would otherwise let replace ours whole.

/**
 * The connection string without its `options`, and the options to connect with: `ours` first, so
 * a setting the operator also gives (`-c jit=on`) is theirs.
 */
export function connectionOptions(
  url: string,
  ours: readonly string[],
): { connectionString: string; options: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: ours.join(' ') };
  }
  const theirs = parsed.searchParams.get('options');
  if (theirs === null) return { connectionString: url, options: ours.join(' ') };
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: [...ours, theirs].join(' ') };
}
