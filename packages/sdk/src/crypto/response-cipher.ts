// The user tables' response encryption, shared by the gateway (encrypts) and the clients (decrypt):
// AES-256-GCM over the JSON text, sent as base64 of iv (12 bytes) | ciphertext | tag (16 bytes).
// WebCrypto only, no Buffer, so the same code runs in Node 20 and in the browser.
import { BlockCatchError } from '../errors.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key, payload or decryption failure (`code` 'response_cipher'). */
export class ResponseCipherError extends BlockCatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('response_cipher', message, options);
  }
}

/**
 * Reads a 32-byte key written as 64 hex digits or as base64 (standard or url-safe, padding
 * optional). Anything else throws, naming the expected length.
 */
export function parseResponseKey(text: string): Uint8Array {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) {
    const key = new Uint8Array(KEY_BYTES);
    for (let i = 0; i < KEY_BYTES; i++)
      key[i] = Number.parseInt(trimmed.slice(i * 2, i * 2 + 2), 16);
    return key;
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const key = fromBase64(trimmed.replace(/-/g, '+').replace(/_/g, '/'));
    if (key && key.length === KEY_BYTES) return key;
  }
  throw new ResponseCipherError(
    `The response key must be ${KEY_BYTES} bytes written as 64 hex digits or as base64 (44 characters); ` +
      `got ${trimmed.length} characters. Make one with: openssl rand -base64 32`,
  );
}

export async function encryptResponse(json: string, key: Uint8Array): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await globalThis.crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, tagLength: TAG_BYTES * 8 },
      await importKey(key, 'encrypt'),
      new TextEncoder().encode(json),
    ),
  );
  // WebCrypto appends the tag to the ciphertext, which is already the wire order after the iv.
  const payload = new Uint8Array(IV_BYTES + sealed.length);
  payload.set(iv, 0);
  payload.set(sealed, IV_BYTES);
  return toBase64(payload);
}

export async function decryptResponse(payload: string, key: Uint8Array): Promise<string> {
  const bytes = fromBase64(payload.trim());
  if (!bytes || bytes.length < IV_BYTES + TAG_BYTES) {
    throw new ResponseCipherError(
      'The encrypted response is not base64 of iv (12 bytes), ciphertext and tag (16 bytes).',
    );
  }
  const cryptoKey = await importKey(key, 'decrypt');
  let plain: ArrayBuffer;
  try {
    plain = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), tagLength: TAG_BYTES * 8 },
      cryptoKey,
      bytes.slice(IV_BYTES),
    );
  } catch {
    // WebCrypto's OperationError says nothing; these are the only two causes with a valid shape.
    throw new ResponseCipherError(
      'The encrypted response failed its integrity check: it was altered, or the key differs from the gateway’s.',
    );
  }
  return new TextDecoder().decode(plain);
}

// Typed through the call: the SDK compiles without the DOM library, where CryptoKey is declared.
type AesKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

function importKey(key: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<AesKey> {
  if (key.length !== KEY_BYTES) {
    throw new ResponseCipherError(
      `The response key must be ${KEY_BYTES} bytes; got ${key.length}.`,
    );
  }
  return globalThis.crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    'AES-GCM',
    false,
    [usage],
  );
}

// btoa works on Latin-1 strings; feeding it slices (a multiple of 3 bytes) keeps multi-megabyte
// tables out of one giant intermediate string and off the argument-count limit of fromCharCode.
const SLICE = 3 * 8192;

function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += SLICE) {
    const slice = bytes.subarray(start, start + SLICE);
    parts.push(btoa(String.fromCharCode(...slice)));
  }
  return parts.join('');
}

function fromBase64(text: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
