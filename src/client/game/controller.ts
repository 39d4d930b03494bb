import type { AccountResponse, ErrorCode, Play, StakeOffer } from '../../rules/api.ts';
import { evaluateWheels } from '../../rules/evaluate.ts';
import { STAKES_CENTS, type StakeCents } from '../../rules/stakes.ts';
import type { Segment } from '../../rules/unit.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import type { Strings } from '../i18n/index.ts';
import type { GameApi } from '../net/api.ts';
import { newPlayId } from '../net/playId.ts';
import type { ApiFailure } from '../net/http.ts';
import * as round from './round.ts';
import { planSpin, SAFE_FRACTION, SEGMENT_DEG, segmentUnderCursor, type SpinPlan } from './spin.ts';

/** What the controller needs from the Pixi scene. */
export interface TableView {
  showSegments(wheels: ReadonlyArray<{ segments: readonly Segment[] }> | null): void;
  showStopped(wheel: number, stop: number, offset: number): void;
  rotationDeg(wheel: number): number;
  spin(wheel: number, plan: SpinPlan, reducedMotion: boolean): Promise<void>;
  celebrate(level: 0 | 1 | 2 | 3, glowing: readonly boolean[], reducedMotion: boolean): void;
  clearCelebration(): void;
}

/** What it needs from the DOM layer (see ui/hud.ts). */
export interface ControlsView {
  setStakes(offers: readonly StakeOffer[], selected: StakeCents): void;
  setControls(c: {
    canPlay: boolean;
    buying: boolean;
    canGo: readonly boolean[];
    canGoAll: boolean;
    stakesEnabled: boolean;
  }): void;
  setBalance(cents: number | null): void;
  setMuted(muted: boolean): void;
  showMessage(text: string | null): void;
  announce(text: string): void;
  showResult(play: Play, reducedMotion: boolean, replayOf?: string): void;
  hideResult(): void;
}

export type Cue = 'tick' | 'spin' | 'stop' | 'bell' | 'win-small' | 'win-big' | 'lose' | 'click';
export interface AudioOut {
  play(cue: Cue): void;
  setMuted(muted: boolean): void;
  readonly muted: boolean;
  unlock(): void;
}

export interface ControllerDeps {
  api: GameApi;
  table: TableView;
  controls: ControlsView;
  audio: AudioOut;
  strings: Strings;
  locale: Locale;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  random: () => number;
  reducedMotion: boolean;
  launchToken?: string | null;
  /** Runs `fn` after `seconds` on the animation clock (so the test clock drives it). */
  later(seconds: number, fn: () => void): void;
  /** Told every time the round changes (test signals, data attributes). */
  onChange?(state: round.RoundState): void;
}

type ShownWheels = ReadonlyArray<{ segments: readonly Segment[] }> | null;

const TOKEN_KEY = 'spincake.token';
const START_RETRY_MS = 2_000;

/**
 * Plays the server's Play step by step through the views. It never decides an
 * outcome: the wheels land where the server says, the card shows the server's JEU 1,
 * JEU 2 and total, and a disagreement with `evaluateWheels` is logged as an error.
 */
export class GameController {
  private state: round.RoundState = round.initialRound;
  private token: string | null = null;
  private balanceCents: number | null = null;
  private offers: StakeOffer[] = STAKES_CENTS.map((stakeCents) => ({ stakeCents, onSale: true }));
  private stake: StakeCents = STAKES_CENTS[0];
  private salesOpen = true;
  private salesMessage = '';
  /** A « Jouer » whose answer never came: pressed again, it is resent with the same playId. */
  private pending: { playId: string; stakeCents: StakeCents } | null = null;
  private progressChain: Promise<void> = Promise.resolve();
  /** The segments on the wheels now, so a replay can put the table back as it was. */
  private shownWheels: ShownWheels = null;
  /** During a replay: the past play and how the table looked before it. */
  private replaying: { play: Play; before: { shown: ShownWheels; rotations: number[] } } | null = null;

  constructor(private readonly d: ControllerDeps) {}

  get round(): round.RoundState {
    return this.state;
  }

  get session(): { token: string | null } {
    return { token: this.token };
  }

  async start(): Promise<void> {
    this.d.controls.setMuted(this.d.audio.muted);
    this.showSegments(null);
    this.render();
    for (;;) {
      const account = await this.connect();
      if (account) {
        this.d.controls.showMessage(null);
        this.applyAccount(account);
        return;
      }
      this.d.controls.showMessage(this.d.strings.errors.network);
      await new Promise((r) => setTimeout(r, START_RETRY_MS));
    }
  }

  selectStake(stakeCents: StakeCents): void {
    if (this.state.phase !== 'idle' || this.pending) return;
    this.d.audio.unlock();
    this.d.audio.play('click');
    this.stake = stakeCents;
    this.d.controls.showMessage(this.offerMessage());
    this.render();
  }

  async play(): Promise<void> {
    if (!this.canPlay() || !this.token) return;
    this.d.audio.unlock();
    this.d.audio.play('click');
    this.d.table.clearCelebration();
    this.pending ??= { playId: newPlayId(), stakeCents: this.stake };
    this.setState(round.startBuying(this.state));
    this.d.controls.showMessage(null);
    const result = await this.d.api.play(this.token, this.pending.stakeCents, this.pending.playId);
    if (result.ok) {
      this.pending = null;
      this.showPlay(result.data.play);
      return;
    }
    if (result.kind === 'server') this.pending = null;
    this.setState(round.buyFailed(this.state));
    this.d.controls.showMessage(this.failureMessage(result));
    if (result.kind === 'server' && (result.code === 'SOLD_OUT' || result.code === 'SALES_CLOSED')) {
      void this.refreshAccount();
    }
  }

  go(wheel: number): void {
    if (!round.canLaunch(this.state, wheel)) return;
    this.launch([wheel]);
  }

  goAll(): void {
    const standing = round.standingWheels(this.state);
    if (standing.length > 0) this.launch(standing);
  }

  toggleMute(): void {
    this.d.audio.unlock();
    this.d.audio.setMuted(!this.d.audio.muted);
    this.d.controls.setMuted(this.d.audio.muted);
  }

  /**
   * Article 4.1: a past play from the history, on the wheels exactly as it fell — its
   * segments, its stops, then its own figures on a card labelled as a replay. Nothing
   * is bought or reported; only from an idle table. Returns whether it started.
   */
  replay(play: Play): boolean {
    if (!round.canReplay(this.state) || this.pending) return false;
    this.d.audio.unlock();
    this.d.audio.play('spin');
    this.d.table.clearCelebration();
    const rotations = [0, 1, 2, 3].map((i) => this.d.table.rotationDeg(i));
    this.replaying = { play, before: { shown: this.shownWheels, rotations } };
    this.showSegments(play.wheels);
    this.setState(round.startReplay(this.state));
    this.d.controls.showMessage(null);
    this.d.controls.announce(this.d.strings.replayNotice(this.playDate(play)));
    play.wheels.forEach((w, i) => {
      const plan = planSpin(this.d.table.rotationDeg(i), w.stop, this.d.random, this.d.reducedMotion);
      void this.d.table.spin(i, plan, this.d.reducedMotion).then(() => this.stopped(play, i));
    });
    return true;
  }

  closeResult(): void {
    if (round.isReplayOver(this.state)) {
      this.endReplay();
      return;
    }
    if (this.state.phase !== 'revealed') return;
    this.d.audio.play('click');
    this.d.controls.hideResult();
    this.d.table.clearCelebration();
    this.setState(round.toIdle());
    void this.refreshAccount();
  }

  // ——— start-up ———

  private async connect(): Promise<AccountResponse | null> {
    this.token ??= this.d.storage.getItem(TOKEN_KEY);
    if (this.token) {
      const account = await this.d.api.account(this.token);
      if (account.ok) return account.data;
      if (account.kind === 'network') return null;
      this.token = null;
    }
    const session = await this.d.api.openSession(this.d.launchToken ?? undefined);
    if (!session.ok) {
      if (session.kind === 'server') this.d.controls.showMessage(this.failureMessage(session));
      return null;
    }
    this.token = session.data.token;
    this.d.storage.setItem(TOKEN_KEY, this.token);
    const account = await this.d.api.account(this.token);
    return account.ok ? account.data : null;
  }

  private applyAccount(account: AccountResponse): void {
    this.offers = account.stakes;
    this.salesOpen = account.sales.open;
    this.salesMessage = account.sales.message;
    this.balanceCents = account.balanceCents;
    if (account.unfinishedPlay) {
      this.showPlay(account.unfinishedPlay);
      this.d.controls.announce(this.d.strings.resumeNotice);
    } else {
      this.setState(round.toIdle());
      this.d.controls.showMessage(this.offerMessage());
    }
  }

  private async refreshAccount(): Promise<void> {
    if (!this.token) return;
    const result = await this.d.api.account(this.token);
    if (!result.ok) return;
    const account = result.data;
    this.offers = account.stakes;
    this.salesOpen = account.sales.open;
    this.salesMessage = account.sales.message;
    if (this.state.phase === 'idle') {
      this.balanceCents = account.balanceCents;
      this.d.controls.showMessage(this.offerMessage());
    }
    this.render();
  }

  // ——— the round ———

  private showPlay(play: Play): void {
    this.stake = play.stakeCents;
    this.showSegments(play.wheels);
    const next = round.withPlay(play);
    next.wheels.forEach((w, i) => {
      if (w === 'stopped') this.d.table.showStopped(i, play.wheels[i]!.stop, this.d.random() * 2 - 1);
    });
    this.setState(next);
    if (next.phase === 'revealed') this.reveal(play);
  }

  private launch(wheels: number[]): void {
    const play = this.state.play!;
    this.d.audio.unlock();
    this.d.audio.play('spin');
    this.setState(round.launch(this.state, wheels));
    this.reportProgress(play.playId);
    for (const i of wheels) {
      const plan = planSpin(this.d.table.rotationDeg(i), play.wheels[i]!.stop, this.d.random, this.d.reducedMotion);
      void this.d.table.spin(i, plan, this.d.reducedMotion).then(() => this.stopped(play, i));
    }
  }

  private stopped(play: Play, wheel: number): void {
    const replay = this.state.phase === 'replay' && this.replaying?.play.playId === play.playId;
    if (!replay && this.state.play?.playId !== play.playId) return;
    this.setState(round.wheelStopped(this.state, wheel));
    this.d.audio.play('stop');
    const segment = play.wheels[wheel]!.segments[play.wheels[wheel]!.stop]!;
    if (segment.symbol === 'bell') this.d.audio.play('bell');
    const t = this.d.strings;
    this.d.controls.announce(t.wheelResult(wheel + 1, segment.points, t.symbols[segment.symbol]));
    if (this.state.phase === 'revealed' || round.isReplayOver(this.state)) this.reveal(play);
  }

  private reveal(play: Play): void {
    this.checkAgainstRules(play);
    const replay = this.state.phase === 'replay';
    // A replay shows the past play's figures; the balance stays today's.
    if (!replay) this.balanceCents = play.balanceAfterCents;
    const t = this.d.strings;
    const multiple = play.winCents / play.stakeCents;
    const level = play.winCents === 0 ? 0 : multiple >= 1000 ? 3 : multiple >= 20 ? 2 : 1;
    const glowing = play.wheels.map((w) => {
      const s = w.segments[w.stop]!;
      return (play.jeu1.winCents > 0 && s.symbol === 'bell') || play.jeu2.winCents > 0;
    });
    this.d.table.celebrate(level, glowing, this.d.reducedMotion);
    this.d.audio.play(level === 0 ? 'lose' : level >= 2 ? 'win-big' : 'win-small');
    this.render();
    this.d.later(this.d.reducedMotion ? 0 : 0.6, () => {
      if (replay) {
        if (round.isReplayOver(this.state) && this.replaying?.play.playId === play.playId) {
          this.d.controls.showResult(play, this.d.reducedMotion, this.playDate(play));
        }
        return;
      }
      if (this.state.play?.playId !== play.playId) return;
      this.d.controls.showResult(play, this.d.reducedMotion);
    });
    const money = (c: number) => (c > 0 ? formatCents(c, this.d.locale) : t.noWin);
    this.d.controls.announce(t.resultLine(t.jeu1, t.bellsFound(play.jeu1.bells), money(play.jeu1.winCents)));
    this.d.controls.announce(t.resultLine(t.jeu2, t.pointsTotal(play.jeu2.points), money(play.jeu2.winCents)));
    this.d.controls.announce(play.winCents > 0 ? t.totalLine(formatCents(play.winCents, this.d.locale)) : t.lostTitle);
    if (!play.finished && !replay) void this.finish(play.playId);
  }

  /** Back to the table as it was before the replay: same segments, same angles. */
  private endReplay(): void {
    const before = this.replaying!.before;
    this.replaying = null;
    this.d.audio.play('click');
    this.d.controls.hideResult();
    this.d.table.clearCelebration();
    this.showSegments(before.shown);
    before.rotations.forEach((deg, i) => {
      const stop = segmentUnderCursor(deg);
      // Degrees from that segment's centre, as showStopped's offset (−1…1 of the safe part).
      const fromCentre = ((((deg + stop * SEGMENT_DEG) % 360) + 540) % 360) - 180;
      this.d.table.showStopped(i, stop, fromCentre / ((SAFE_FRACTION / 2) * SEGMENT_DEG));
    });
    this.setState(round.toIdle());
    this.d.controls.showMessage(this.offerMessage());
  }

  private showSegments(wheels: ShownWheels): void {
    this.shownWheels = wheels;
    this.d.table.showSegments(wheels);
  }

  private playDate(play: Play): string {
    return new Date(play.createdAt).toLocaleString(this.d.locale === 'fr' ? 'fr-FR' : 'en-GB', {
      dateStyle: 'short',
      timeStyle: 'medium',
    });
  }

  /** The client never decides, but it notices when what it shows disagrees with the server. */
  private checkAgainstRules(play: Play): void {
    const seen = evaluateWheels(play.wheels, play.stakeCents);
    if (
      seen.bells !== play.jeu1.bells ||
      seen.points !== play.jeu2.points ||
      seen.jeu1WinCents !== play.jeu1.winCents ||
      seen.jeu2WinCents !== play.jeu2.winCents ||
      seen.winCents !== play.winCents
    ) {
      console.error('SPINCAKE: the wheels disagree with the server’s result', { playId: play.playId, seen, play });
    }
  }

  private reportProgress(playId: string): void {
    const launched = round.launchedFlags(this.state);
    const token = this.token!;
    this.progressChain = this.progressChain.then(() =>
      this.withRetries(() => this.d.api.progress(token, playId, launched)),
    );
  }

  private finish(playId: string): Promise<void> {
    const token = this.token!;
    this.progressChain = this.progressChain.then(() => this.withRetries(() => this.d.api.finish(token, playId)));
    return this.progressChain;
  }

  private async withRetries(call: () => Promise<{ ok: boolean; kind?: string }>): Promise<void> {
    for (let attempt = 0; attempt < 4; attempt++) {
      const result = await call();
      if (result.ok || result.kind !== 'network') return;
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
  }

  // ——— what the player may do now ———

  private canPlay(): boolean {
    const offer = this.offers.find((o) => o.stakeCents === this.stake);
    return round.canBuy(this.state) && this.salesOpen && !!offer?.onSale && this.token !== null;
  }

  private offerMessage(): string | null {
    if (!this.salesOpen) return this.salesMessage || this.d.strings.errors.SALES_CLOSED;
    const offer = this.offers.find((o) => o.stakeCents === this.stake);
    if (offer && !offer.onSale) return this.d.strings.errors.SOLD_OUT;
    return null;
  }

  private failureMessage(failure: ApiFailure): string {
    const errors = this.d.strings.errors;
    if (failure.kind === 'network') return errors.network;
    if (failure.code === 'SALES_CLOSED' && failure.message) return failure.message;
    return errors[failure.code as ErrorCode] ?? errors.unknown;
  }

  private setState(next: round.RoundState): void {
    this.state = next;
    this.render();
    this.d.onChange?.(next);
  }

  private render(): void {
    const s = this.state;
    const c = this.d.controls;
    c.setStakes(this.offers, this.pending?.stakeCents ?? this.stake);
    const inRound = s.play && s.phase !== 'revealed';
    c.setBalance(inRound ? s.play!.balanceBeforeCents - s.play!.stakeCents : this.balanceCents);
    c.setControls({
      canPlay: this.canPlay(),
      buying: s.phase === 'buying',
      canGo: [0, 1, 2, 3].map((i) => round.canLaunch(s, i)),
      canGoAll: round.standingWheels(s).length > 0,
      stakesEnabled: s.phase === 'idle' && !this.pending,
    });
  }
}
