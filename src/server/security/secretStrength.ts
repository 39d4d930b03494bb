/**
 * How hard a shared secret is to guess, estimated from its text: the production profile
 * refuses one under 128 bits. The estimate is the smaller of two bounds per character —
 * the alphabet its characters come from (digits, letters, base64, any printable) and the
 * text's own Shannon entropy (Miller–Madow corrected, so that a short random string is not
 * underrated) — times its length. Repetition ("aaaa…", "abab…") and runs ("abcd…", "1234…")
 * bring the second bound down; a known default is refused whatever its estimate.
 */

export const MIN_SECRET_BITS = 128;

/** Secrets that have been printed somewhere (docs, examples, scripts, tutorials): never safe. */
const KNOWN_DEFAULTS = new Set(
  [
    'changeme',
    'change-me',
    'secret',
    'password',
    'spincake',
    'spincake-portal-secret',
    'spincake-wallet-secret',
    'portal-demo-secret-0123456789abcdef',
    'test-secret-test-secret-test-secret',
  ].map((s) => s.toLowerCase()),
);

function alphabetBits(text: string): number {
  let size = 0;
  if (/[0-9]/.test(text)) size += 10;
  if (/[a-f]/.test(text) && !/[g-z]/.test(text) && !/[A-Z]/.test(text)) size += 6;
  else {
    if (/[a-z]/.test(text)) size += 26;
    if (/[A-Z]/.test(text)) size += 26;
  }
  if (/[+/_=-]/.test(text)) size += 4;
  if (/[^A-Za-z0-9+/_=-]/.test(text)) size += 30;
  return Math.log2(Math.max(size, 1));
}

/** Bits per character seen in the text itself (Miller–Madow: + (distinct − 1) / 2n ln 2). */
function observedBits(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  const n = text.length;
  let entropy = 0;
  for (const count of counts.values()) entropy -= (count / n) * Math.log2(count / n);
  return entropy + (counts.size - 1) / (2 * n * Math.LN2);
}

/** The share of steps that go to the next or previous character ("abcd", "4321"). */
function runShare(text: string): number {
  let steps = 0;
  for (let i = 1; i < text.length; i++) {
    if (Math.abs(text.charCodeAt(i) - text.charCodeAt(i - 1)) === 1) steps++;
  }
  return text.length > 1 ? steps / (text.length - 1) : 0;
}

/** The shortest period that the whole text repeats (its length when it repeats nothing). */
function period(text: string): number {
  for (let p = 1; p <= text.length / 2; p++) {
    let repeats = true;
    for (let i = p; i < text.length && repeats; i++) repeats = text[i] === text[i - p];
    if (repeats) return p;
  }
  return text.length;
}

export interface SecretVerdict {
  bits: number;
  /** Why it is weak; null when it is not. */
  weakness: string | null;
}

export function judgeSecret(secret: string): SecretVerdict {
  if (KNOWN_DEFAULTS.has(secret.toLowerCase())) return { bits: 0, weakness: 'a known default' };
  const repeated = period(secret);
  const text = secret.slice(0, repeated);
  if (repeated < secret.length) {
    const bits = Math.round(text.length * Math.min(alphabetBits(text), observedBits(text)));
    return { bits, weakness: `repetitive (the same ${repeated} character(s) over and over): about ${bits} bits` };
  }
  if (runShare(secret) > 0.5) return { bits: 0, weakness: 'a run of consecutive characters' };
  const bits = Math.round(secret.length * Math.min(alphabetBits(secret), observedBits(secret)));
  if (bits < MIN_SECRET_BITS) {
    return { bits, weakness: `about ${bits} bits of entropy, under ${MIN_SECRET_BITS} (short or repetitive)` };
  }
  return { bits, weakness: null };
}
