/** Lowercase hex, both ways; `fromHex` returns null for anything but an even count of hex digits. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, '0');
  return out;
}

export function fromHex(text: string): Uint8Array | null {
  if (typeof text !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A SHA-256 digest in hex: exactly 64 hex digits. */
export function isDigestHex(text: unknown): text is string {
  return typeof text === 'string' && /^[0-9a-f]{64}$/.test(text);
}
