/**
 * Reading settings from an environment, as the game server and the reference wallet both
 * do at start: each keeps its own error class (and its own settings), these two rules are
 * shared so that a blank variable or a number means the same in both.
 */
export type Env = Record<string, string | undefined>;

/** The setting's value, trimmed; undefined when unset or blank. */
export function readSetting(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

/** A whole number from `min` to `max`, `fallback` when unset; anything else is refused through `refuse`. */
export function integerSetting(
  env: Env,
  name: string,
  range: { fallback: number; min: number; max: number },
  refuse: (message: string) => Error,
): number {
  const raw = readSetting(env, name);
  if (raw === undefined) return range.fallback;
  if (!/^[0-9]+$/.test(raw)) throw refuse(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw refuse(`${name} must be between ${range.min} and ${range.max}, got ${raw}`);
  }
  return value;
}

/** What a URL setting must be: one of these schemes (`'https:'`), and an example for the message. */
export interface UrlRule {
  protocols: readonly string[];
  example: string;
}

/**
 * `raw`, the value of setting `name` (or an entry of it), as a URL of one of the rule's
 * schemes; anything else is refused through `refuse`. The message never repeats the value:
 * a database URL may hold a password.
 */
export function parseUrlSetting(name: string, raw: string, rule: UrlRule, refuse: (message: string) => Error): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`${name} must be a URL such as ${rule.example}`);
  }
  if (!rule.protocols.includes(url.protocol)) {
    const schemes = rule.protocols.map((protocol) => `${protocol}//`).join(' or ');
    throw refuse(`${name} must start with ${schemes}, got "${url.protocol}//…"`);
  }
  return url;
}

/** A URL setting (`parseUrlSetting`); undefined when unset. */
export function urlSetting(env: Env, name: string, rule: UrlRule, refuse: (message: string) => Error): URL | undefined {
  const raw = readSetting(env, name);
  return raw === undefined ? undefined : parseUrlSetting(name, raw, rule, refuse);
}
