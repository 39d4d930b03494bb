import type { Launched } from '../../contract/api.ts';
import { STAKES_CENTS, type StakeCents } from '../../rules/stakes.ts';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const STAKE_KEY = 'spincake.stake';
const RESULT_KEY = 'spincake.resultShown';
const QUICK_SPIN_KEY = 'spincake.quickSpin';
const LAUNCHED_KEY = 'spincake.launched';

/**
 * What the page remembers across reloads of the player's own choices: the stake picked,
 * which play's result card was up, which wheels of the round were launched here (their
 * reports may not have reached the server), and whether spins are quick. It never holds an
 * outcome: the result shown again after a reload is the server's play, found in its history
 * by this playId.
 */
export class SavedChoices {
  constructor(private readonly storage: KeyValueStorage) {}

  /** The stake last picked, or null (nothing kept, or not a stake of the game). */
  stake(): StakeCents | null {
    const kept = Number(this.storage.getItem(STAKE_KEY));
    return (STAKES_CENTS as readonly number[]).includes(kept) ? (kept as StakeCents) : null;
  }

  keepStake(stake: StakeCents): void {
    this.storage.setItem(STAKE_KEY, String(stake));
  }

  /** Whether the player chose quick spins (off unless they did). */
  quickSpin(): boolean {
    return this.storage.getItem(QUICK_SPIN_KEY) === 'on';
  }

  keepQuickSpin(on: boolean): void {
    this.storage.setItem(QUICK_SPIN_KEY, on ? 'on' : 'off');
  }

  /** The play whose result card was up when the page went away, if any. */
  resultShown(): string | null {
    return this.storage.getItem(RESULT_KEY);
  }

  keepResultShown(playId: string | null): void {
    if (playId === null) this.storage.removeItem(RESULT_KEY);
    else this.storage.setItem(RESULT_KEY, playId);
  }

  /** The wheels of play `playId` launched on this page, or null when another play was the last one. */
  launched(playId: string): Launched | null {
    try {
      const kept = JSON.parse(this.storage.getItem(LAUNCHED_KEY) ?? 'null') as { playId?: unknown; launched?: unknown };
      const flags = kept?.launched;
      if (kept?.playId !== playId || !Array.isArray(flags) || flags.length !== 4) return null;
      return flags.every((f) => typeof f === 'boolean') ? (flags as unknown as Launched) : null;
    } catch {
      return null;
    }
  }

  keepLaunched(playId: string, launched: Launched): void {
    this.storage.setItem(LAUNCHED_KEY, JSON.stringify({ playId, launched }));
  }
}
