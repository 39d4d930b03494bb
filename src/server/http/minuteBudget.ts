/**
 * At most `max` events a minute on this instance, counted in fixed one-minute windows: the
 * cap on new sessions in all (SESSION_CREATE_TOTAL_PER_MINUTE). The rate-limit plugin runs
 * one limit per request, which counts new sessions per address; this is the second.
 */
export class MinuteBudget {
  private windowStart = 0;
  private used = 0;

  constructor(private readonly max: number) {}

  /** Takes one: null when there was one left, else how many ms until the next window. */
  take(nowMs: number): number | null {
    if (nowMs - this.windowStart >= 60_000) {
      this.windowStart = nowMs;
      this.used = 0;
    }
    if (this.used >= this.max) return this.windowStart + 60_000 - nowMs;
    this.used++;
    return null;
  }
}
