/**
 * Capped exponential backoff with jitter: the delay before attempt `attempt + 1` of a call
 * that got no answer. `random` in [0, 1) spreads retries of many entries over the second
 * half of the window, so a wallet coming back is not hit by all of them at once.
 */
export function retryDelayMs(attempt: number, baseMs: number, capMs: number, random: number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
