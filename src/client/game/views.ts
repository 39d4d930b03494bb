import type { Play, StakeOffer } from '../../contract/api.ts';
import type { StakeCents } from '../../rules/stakes.ts';
import type { Segment } from '../../rules/unit.ts';
import type { SpinPlan } from './spin.ts';
import type { WinLevel } from './winLevels.ts';

/** The segments on the four wheels, or null for the idle table's own cakes. */
export type ShownWheels = ReadonlyArray<{ segments: readonly Segment[] }> | null;

/** What the game needs from the drawn table (view/scene.ts implements it). */
export interface TableView {
  showSegments(wheels: ShownWheels): void;
  showStopped(wheel: number, stop: number, offset: number): void;
  rotationDeg(wheel: number): number;
  spin(wheel: number, plan: SpinPlan): Promise<void>;
  /** Slam-stop: every turning wheel brakes onto its plan's stop within about 0.2 s (the player is in a hurry). */
  finishSpins(): void;
  celebrate(level: WinLevel, glowing: readonly boolean[], reducedMotion: boolean): void;
  clearCelebration(): void;
  /**
   * Runs `fn` once the table is drawn: at once, or when a lost graphics context is back
   * (so that a result card never shows over a table without its wheels).
   */
  whenDrawn(fn: () => void): void;
}

/** Which buttons the player may use now. */
export interface ControlsState {
  canPlay: boolean;
  buying: boolean;
  /** A purchase whose answer was lost, at this stake: « Jouer » resends it (same ticket). */
  pendingStakeCents: StakeCents | null;
  canGo: readonly boolean[];
  canGoAll: boolean;
  stakesEnabled: boolean;
}

/** Where the player's next action is: « Jouer », the common GO, or one wheel's GO (0–3). */
export type FocusTarget = 'play' | 'goAll' | number;

/** « Recharger la démo »: not offered, offered, or sent and waiting for the server. */
export type DemoReloadOffer = 'none' | 'offered' | 'busy';

/** What the game needs from the DOM controls (ui/hud.ts implements it). */
export interface ControlsView {
  /** `maxCents`: stakes above it cannot be paid from the balance (null: no limit known). */
  setStakes(offers: readonly StakeOffer[], selected: StakeCents, maxCents: number | null): void;
  /** Whether to offer the portal's deposit page (the balance pays no stake). */
  offerDeposit(shown: boolean): void;
  /** « Recharger la démo » (a demo player whose play money pays no stake). */
  offerDemoReload(offer: DemoReloadOffer): void;
  setControls(c: ControlsState): void;
  /** `pending`: the figure waits for the server's answer to a purchase (its stake held). */
  setBalance(cents: number | null, pending?: boolean): void;
  setMuted(muted: boolean): void;
  /** The quick-spin setting as it stands (its switch; the card's own animation follows it). */
  setQuickSpin(on: boolean): void;
  showMessage(text: string | null): void;
  /** The wheels' tally as they stop, over the table (null: none). */
  showTally(text: string | null): void;
  announce(text: string): void;
  /**
   * The result card (after a takeover for the big tiers). Not a replay: the balance counts
   * up from `balanceBeforeCents − stakeCents` to `balanceAfterCents` with the card's total.
   * `replayOf`: a replay of the play of that date; `resumed`: the round was found unfinished after a reload.
   */
  showResult(play: Play, reducedMotion: boolean, replayOf?: string, resumed?: boolean): void;
  hideResult(): void;
  /** Moves the keyboard focus to the player's next action (after the controls were updated). */
  focus(target: FocusTarget): void;
}
