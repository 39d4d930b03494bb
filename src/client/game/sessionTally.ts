import type { Play } from '../../contract/api.ts';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const KEY = 'spincake.sessionTally';
const SEEN_MAX = 64;

export interface Tally {
  /** The session's bearer token: a new session starts a new tally. */
  token: string;
  /** When the session started, ms since the epoch (the page's clock). */
  startedAt: number;
  stakedCents: number;
  wonCents: number;
  /** The plays already counted (`id:bought`, `id:won`), so a reload never counts twice. */
  seen: string[];
}

/**
 * The player's session in figures, reachable at any time: how long it has lasted and
 * its net result (wins revealed minus stakes paid). Only the server's amounts are
 * added up; the tally lives in storage so a reload keeps it.
 */
export class SessionTally {
  private tally: Tally | null = null;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly now: () => number,
  ) {}

  /** The session `token` is the player's now: its tally, or a fresh one. */
  begin(token: string): void {
    let kept: Tally | null;
    try {
      kept = JSON.parse(this.storage.getItem(KEY) ?? 'null') as Tally | null;
    } catch {
      kept = null;
    }
    this.tally =
      kept && kept.token === token && Number.isSafeInteger(kept.stakedCents) && Array.isArray(kept.seen)
        ? kept
        : { token, startedAt: this.now(), stakedCents: 0, wonCents: 0, seen: [] };
    this.save();
  }

  /** A stake paid (a play bought, or found unfinished). */
  bought(play: Play): void {
    this.count(`${play.playId}:bought`, (t) => (t.stakedCents += play.stakeCents));
  }

  /** A result revealed: its win now counts. */
  revealed(play: Play): void {
    this.bought(play);
    this.count(`${play.playId}:won`, (t) => (t.wonCents += play.winCents));
  }

  /** Minutes since the session started, the stakes, the wins and the net result (cents). */
  summary(): { minutes: number; stakedCents: number; wonCents: number; netCents: number } | null {
    const t = this.tally;
    if (!t) return null;
    return {
      minutes: Math.max(0, Math.floor((this.now() - t.startedAt) / 60_000)),
      stakedCents: t.stakedCents,
      wonCents: t.wonCents,
      netCents: t.wonCents - t.stakedCents,
    };
  }

  /**
   * Adds a play's amount once: the key that says it was counted and the amount itself
   * are saved together, so a reload between the two can never keep one without the other.
   */
  private count(key: string, add: (t: Tally) => void): void {
    const t = this.tally;
    if (!t || t.seen.includes(key)) return;
    t.seen = [...t.seen, key].slice(-SEEN_MAX);
    add(t);
    this.save();
  }

  private save(): void {
    if (this.tally) this.storage.setItem(KEY, JSON.stringify(this.tally));
  }
}
