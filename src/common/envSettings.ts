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
