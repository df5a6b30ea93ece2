// Small URL text helpers shared by the clients and the gateway.

/**
 * `url` without its trailing slashes. A loop, not `/\/+$/`: that pattern retries from every slash
 * of a long run of them, quadratic in the run's length (a Host header can hold 16 KB of slashes).
 */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return url.slice(0, end);
}
