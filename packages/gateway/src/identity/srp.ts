// The server half of the SRP-6a exchange that amazon-cognito-identity-js performs (its
// AuthenticationHelper), byte for byte: same group, same hex padding, same HKDF and signature.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The 3072-bit group of RFC 5054, generator 2, as the client library hard-codes it. */
export const N = BigInt(
  '0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
    'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
    'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
    '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
    'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
    '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
    'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
    'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
export const g = 2n;
const INFO = Buffer.from('Caldera Derived Key\u0001', 'utf8');

/**
 * The library's padHex for non-negative values: even-length hex, with `00` prepended when the top
 * bit is set (Java's two's-complement `toByteArray`). Every hash input goes through it.
 */
export function padHex(value: bigint): string {
  if (value < 0n) throw new RangeError('padHex: negative values never occur on the server');
  let hex = value.toString(16);
  if (hex.length % 2 !== 0) hex = `0${hex}`;
  return /^[89a-f]/i.test(hex) ? `00${hex}` : hex;
}

function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function hexHash(hex: string): string {
  return sha256Hex(Buffer.from(hex, 'hex'));
}

/** k = H(N | g), as the client computes it. */
const k = BigInt(`0x${hexHash(padHex(N) + padHex(g))}`);

/**
 * base^exponent mod modulus by left-to-right square-and-multiply over a 4-bit window: BigInt has
 * no native modPow, and the window cuts the multiplications of a 256-bit exponent to about 64.
 */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  if (modulus === 1n) return 0n;
  let b = base % modulus;
  if (b < 0n) b += modulus;
  const table: bigint[] = [1n, b];
  for (let i = 2; i < 16; i++) table.push((table[i - 1]! * b) % modulus);
  const bits = exponent.toString(16);
  let result = 1n;
  for (const nibble of bits) {
    result = (result * result) % modulus;
    result = (result * result) % modulus;
    result = (result * result) % modulus;
    result = (result * result) % modulus;
    const d = Number.parseInt(nibble, 16);
    if (d !== 0) result = (result * table[d]!) % modulus;
  }
  return result;
}

/** x = H(salt | H(poolName | username | ':' | password)). */
function passwordExponent(
  poolName: string,
  username: string,
  password: string,
  salt: bigint,
): bigint {
  const inner = sha256Hex(`${poolName}${username}:${password}`);
  return BigInt(`0x${hexHash(padHex(salt) + inner)}`);
}

/** A fresh salt and the verifier v = g^x mod N: all the server keeps of a password. */
export function createVerifier(
  poolName: string,
  username: string,
  password: string,
): { salt: string; verifier: string } {
  const salt = BigInt(`0x${randomBytes(16).toString('hex')}`);
  const v = modPow(g, passwordExponent(poolName, username, password, salt), N);
  return { salt: padHex(salt), verifier: padHex(v) };
}

/** The verifier for a given salt: a stand-in for unknown users, so they cost what real ones do. */
export function verifierFor(
  poolName: string,
  username: string,
  password: string,
  saltHex: string,
): string {
  return padHex(
    modPow(g, passwordExponent(poolName, username, password, BigInt(`0x${saltHex}`)), N),
  );
}

/** Recomputes v from a candidate password: how USER_PASSWORD_AUTH and ChangePassword check it. */
export function passwordMatches(
  poolName: string,
  username: string,
  password: string,
  stored: { salt: string; verifier: string },
): boolean {
  const salt = BigInt(`0x${stored.salt}`);
  const v = modPow(g, passwordExponent(poolName, username, password, salt), N);
  return safeEqualHex(padHex(v), padHex(BigInt(`0x${stored.verifier}`)));
}

/** The server's ephemeral pair: secret b and public B = k·v + g^b mod N. */
export function serverEphemeral(verifierHex: string): { b: bigint; B: bigint } {
  const v = BigInt(`0x${verifierHex}`);
  for (;;) {
    const b = BigInt(`0x${randomBytes(64).toString('hex')}`);
    const B = (k * v + modPow(g, b, N)) % N;
    if (B !== 0n) return { b, B };
  }
}

/** The client's public value, parsed and checked (A mod N must not be 0, or the key is known). */
export function parseClientPublic(hex: string): bigint | null {
  if (!/^[0-9a-fA-F]{1,2048}$/.test(hex)) return null;
  const A = BigInt(`0x${hex}`);
  return A % N === 0n ? null : A;
}

/** The 16-byte key both sides derive: HKDF-SHA256(ikm = S, salt = u, info = 'Caldera Derived Key'). */
export function sessionKey(input: {
  A: bigint;
  B: bigint;
  b: bigint;
  verifierHex: string;
}): Buffer | null {
  const u = BigInt(`0x${hexHash(padHex(input.A) + padHex(input.B))}`);
  if (u === 0n) return null;
  const v = BigInt(`0x${input.verifierHex}`);
  // S = (A · v^u)^b mod N, which equals the client's (B − k·g^x)^(a + u·x) mod N.
  const S = modPow((input.A * modPow(v, u, N)) % N, input.b, N);
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex'))
    .update(Buffer.from(padHex(S), 'hex'))
    .digest();
  return createHmac('sha256', prk).update(INFO).digest().subarray(0, 16);
}

/** PASSWORD_CLAIM_SIGNATURE = base64(HMAC-SHA256(K, poolName | user | SECRET_BLOCK | TIMESTAMP)). */
export function claimSignature(input: {
  key: Buffer;
  poolName: string;
  userIdForSrp: string;
  secretBlock: string;
  timestamp: string;
}): string {
  return createHmac('sha256', input.key)
    .update(
      Buffer.concat([
        Buffer.from(input.poolName, 'utf8'),
        Buffer.from(input.userIdForSrp, 'utf8'),
        Buffer.from(input.secretBlock, 'base64'),
        Buffer.from(input.timestamp, 'utf8'),
      ]),
    )
    .digest('base64');
}

export function safeEqualHex(a: string, b: string): boolean {
  return safeEqual(Buffer.from(a.toLowerCase()), Buffer.from(b.toLowerCase()));
}

export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIMESTAMP =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) ([A-Z][a-z]{2}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) UTC (\d{4})$/;

/** The library's getNowString: 'Mon Nov 23 03:40:00 UTC 2026' (day unpadded, time padded). */
export function formatSrpTimestamp(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Epoch ms of a TIMESTAMP in that format, or null when it is not one. */
export function parseSrpTimestamp(text: string): number | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!);
  if (month < 0) return null;
  const ms = Date.UTC(Number(m[7]), month, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(ms) ? null : ms;
}
