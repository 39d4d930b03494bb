import type { AccountResponse, Play, StakeOffer } from '../../contract/api.ts';
import { STAKES_CENTS, type StakeCents } from '../../rules/stakes.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import type { Strings } from '../i18n/index.ts';
import type { GameApi } from '../net/api.ts';
import { newPlayId } from '../net/playId.ts';
import type { AudioOut } from './audioOut.ts';
import { ALL_ON_SALE, failureMessage, isOnSale, saleStatusOf, type SaleStatus } from './messages.ts';
import { balanceTooLow, canAfford, fittedStake, tableMessage } from './offer.ts';
import { SavedChoices } from './savedChoices.ts';
import { ProgressReports } from './progress.ts';
import { Replay } from './replay.ts';
import { announceResult, celebrateResult, checkAgainstRules, playDate, type RevealOut } from './reveal.ts';
import * as round from './round.ts';
import { Session } from './session.ts';
import { SessionTally } from './sessionTally.ts';
import { planSpin, SLAM_STOP_S, spinLengthS, type SpinPace } from './spin.ts';
import { liveTally, liveTallyText } from './tally.ts';
import { winLevel } from './winLevels.ts';
import type { ControlsView, ShownWheels, TableView } from './views.ts';

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
  /** Pauses between retries of start-up and reports (setTimeout unless a test injects one). */
  wait?(ms: number): Promise<void>;
  /** Told every time the round changes (data attributes, portal events). */
  onChange?(state: round.RoundState): void;
  /** The page's clock, ms (the session's length); Date.now unless a test injects one. */
  now?: () => number;
  /** The player asks for the portal's deposit page (portal mode only). */
  onDeposit?(request: { balanceCents: number; minStakeCents: number }): void;
  /** Calls `listener` each time the network comes back (the browser's `online` event). */
  onOnline?(listener: () => void): void;
  /** Runs `fn` after `ms` on the page's clock (setTimeout unless a test injects one): a purchase's retries. */
  retryAfter?(ms: number, fn: () => void): void;
}

const START_RETRY_MS = 2_000;
/** A purchase whose answer was lost is sent again by itself after these pauses (then every 30 s). */
export const PURCHASE_RETRY_MS = [2_000, 5_000, 10_000, 30_000] as const;
/** From the last wheel's rest to the card, at each pace: a beat to see the wheels. */
const CARD_DELAY_S: Record<SpinPace, number> = { full: 0.6, quick: 0.15, reduced: 0 };

/** What a replay plays: nothing. */
const SILENT: Pick<AudioOut, 'play'> = { play: () => undefined };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Plays the server's Play step by step through the views. It never decides an
 * outcome: the wheels land where the server says, the card shows the server's JEU 1,
 * JEU 2 and total, and a disagreement with `evaluateWheels` is logged as an error.
 */
export class GameController {
  private state: round.RoundState = round.initialRound;
  private readonly session: Session;
  private readonly reports: ProgressReports;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly out: RevealOut;
  private balanceCents: number | null = null;
  private saleStatus: SaleStatus = ALL_ON_SALE;
  private stake: StakeCents = STAKES_CENTS[0];
  /** A « Jouer » whose answer never came: pressed again, it is resent with the same playId. */
  private pending: { playId: string; stakeCents: StakeCents } | null = null;
  /** The segments on the wheels now, so a replay can put the table back as it was. */
  private shownWheels: ShownWheels = null;
  private replaying: Replay | null = null;
  private readonly savedChoices: SavedChoices;
  private readonly tally: SessionTally;
  /** The player's quick-spin setting (remembered): every spin short, on the same stops. */
  private quickSpin: boolean;
  /**
   * The balance the bar shows while a round's result is not on the card yet: the one after
   * the stake. The card then counts it up to the credited balance with its total.
   */
  private balanceHeld: number | null = null;
  /** When the spin bed is due to end (the page's clock, ms). */
  private bedEndsAt = 0;
  private readonly now: () => number;
  /** Whether the round on the table came back from before a reload with wheels the server had missed. */
  private resumed = false;
  /** Automatic resends of the pending purchase so far (its backoff step). */
  private purchaseRetries = 0;
  /** Bumped whenever a scheduled resend must no longer fire (sent, answered, or superseded). */
  private purchaseRetryGeneration = 0;
  /** Whether the account is a demo player's play money (the server says): « Recharger la démo » then. */
  private demo = false;
  /** A « Recharger la démo » without the server's answer yet: sent again with the same id, so it reloads once. */
  private reload: { id: string; sending: boolean } | null = null;

  constructor(private readonly deps: ControllerDeps) {
    this.wait = deps.wait ?? sleep;
    this.now = deps.now ?? Date.now;
    this.savedChoices = new SavedChoices(deps.storage);
    this.tally = new SessionTally(deps.storage, deps.now ?? Date.now);
    this.stake = this.savedChoices.stake() ?? this.stake;
    this.quickSpin = this.savedChoices.quickSpin();
    this.session = new Session(deps.api, deps.storage, deps.launchToken ?? null);
    this.reports = new ProgressReports(deps.api, this.wait);
    this.out = deps;
    deps.onOnline?.(() => this.resumePurchase());
  }

  get round(): round.RoundState {
    return this.state;
  }

  get token(): string | null {
    return this.session.token;
  }

  /** Settles when every progress report sent so far has been answered or given up. */
  reportsSent(): Promise<void> {
    return this.reports.sent();
  }

  async start(): Promise<void> {
    this.deps.controls.setMuted(this.deps.audio.muted);
    this.deps.controls.setQuickSpin(this.quickSpin);
    this.showSegments(null);
    this.render();
    for (;;) {
      const connection = await this.session.connect();
      if (connection.ok) {
        this.tally.begin(this.session.token!);
        this.deps.controls.showMessage(null);
        await this.applyAccount(connection.account);
        return;
      }
      if (connection.refused) this.deps.controls.showMessage(failureMessage(connection.refused, this.deps.strings));
      this.deps.controls.showMessage(this.deps.strings.errors.network);
      await this.wait(START_RETRY_MS);
    }
  }

  selectStake(stakeCents: StakeCents): void {
    if (this.state.phase !== 'idle' || this.pending) return;
    this.deps.audio.unlock();
    this.deps.audio.play('click');
    this.stake = stakeCents;
    this.savedChoices.keepStake(stakeCents);
    this.deps.controls.showMessage(this.offerMessage());
    this.render();
  }

  async play(): Promise<void> {
    const token = this.session.token;
    if (!this.canPlay() || !token) return;
    this.deps.audio.unlock();
    this.deps.audio.play('click');
    this.deps.table.clearCelebration();
    this.pending ??= { playId: newPlayId(), stakeCents: this.stake };
    this.setState(round.startBuying(this.state));
    this.deps.controls.showMessage(null);
    const result = await this.deps.api.play(token, this.pending.stakeCents, this.pending.playId);
    if (result.ok) {
      this.pending = null;
      this.purchaseRetries = 0;
      this.purchaseRetryGeneration++;
      const play = result.data.play;
      this.tally.bought(play);
      this.showPlay(play);
      const money = (c: number) => formatCents(c, this.deps.locale);
      this.deps.controls.announce(
        this.deps.strings.boughtNotice(money(play.stakeCents), money(play.balanceBeforeCents - play.stakeCents)),
      );
      this.deps.controls.focus('goAll');
      return;
    }
    if (result.kind === 'server') {
      this.pending = null;
      this.purchaseRetries = 0;
      this.purchaseRetryGeneration++;
    }
    this.setState(round.buyFailed(this.state));
    if (this.pending) {
      // The server may have debited: the purchase stays pending (same playId) and is sent
      // again by itself, when the network comes back or after a pause that grows.
      this.deps.controls.showMessage(this.pendingMessage());
      this.scheduleResume();
      return;
    }
    this.deps.controls.showMessage(failureMessage(result, this.deps.strings));
    if (result.kind === 'server' && (result.code === 'SOLD_OUT' || result.code === 'SALES_CLOSED')) {
      void this.refreshAccount();
    }
  }

  /** Sends the pending purchase again now (the network is back, or its pause is over). */
  resumePurchase(): void {
    if (!this.pending || this.state.phase !== 'idle') return;
    this.purchaseRetryGeneration++;
    void this.play();
  }

  private scheduleResume(): void {
    const delays = PURCHASE_RETRY_MS;
    const ms = delays[Math.min(this.purchaseRetries, delays.length - 1)]!;
    this.purchaseRetries++;
    const generation = ++this.purchaseRetryGeneration;
    const after = this.deps.retryAfter ?? ((wait: number, fn: () => void) => void setTimeout(fn, wait));
    after(ms, () => {
      if (generation === this.purchaseRetryGeneration) this.resumePurchase();
    });
  }

  private pendingMessage(): string {
    return this.deps.strings.purchasePending(formatCents(this.pending!.stakeCents, this.deps.locale));
  }

  go(wheel: number): void {
    if (!round.canLaunch(this.state, wheel)) return;
    this.launch([wheel]);
    // The next standing wheel's GO (after this one, going round); none left: the card takes it.
    const standing = round.standingWheels(this.state);
    const next = standing.find((i) => i > wheel) ?? standing[0];
    if (next !== undefined) this.deps.controls.focus(next);
  }

  goAll(): void {
    const standing = round.standingWheels(this.state);
    if (standing.length > 0) this.launch(standing);
  }

  /**
   * A tap or a key while wheels turn: they land at once on the server's stops (the
   * same stops, only sooner). Nothing happens when no wheel turns.
   */
  hurry(): boolean {
    const turning = this.state.wheels.some((w) => w === 'spinning');
    if (!turning || (this.state.phase !== 'spinning' && this.state.phase !== 'replay')) return false;
    this.deps.table.finishSpins();
    this.extendSpinBed(SLAM_STOP_S, true);
    return true;
  }

  toggleMute(): void {
    this.deps.audio.unlock();
    this.deps.audio.setMuted(!this.deps.audio.muted);
    this.deps.controls.setMuted(this.deps.audio.muted);
  }

  /** Quick spins on or off, kept for the next visits; the spins already turning keep their pace. */
  toggleQuickSpin(): void {
    this.deps.audio.unlock();
    this.deps.audio.play('click');
    this.quickSpin = !this.quickSpin;
    this.savedChoices.keepQuickSpin(this.quickSpin);
    this.deps.controls.setQuickSpin(this.quickSpin);
  }

  /** How the next spin moves: reduced motion first, then the player's setting. */
  private pace(): SpinPace {
    return this.deps.reducedMotion ? 'reduced' : this.quickSpin ? 'quick' : 'full';
  }

  /**
   * Article 4.1: a past play from the history, on the wheels exactly as it fell — its
   * segments, its stops, then its own figures on a card labelled as a replay. Nothing
   * is bought or reported; only from an idle table. Returns whether it started.
   */
  replay(play: Play): boolean {
    if (!round.canReplay(this.state) || this.pending) return false;
    // A replay is silent: its sounds would say a win is happening now.
    this.deps.table.clearCelebration();
    this.replaying = Replay.begin(play, this.deps.table, this.shownWheels);
    this.shownWheels = play.wheels;
    this.setState(round.startReplay(this.state));
    this.deps.controls.showTally(null);
    // Said on the table while it turns, not only on the card.
    this.deps.controls.showMessage(this.deps.strings.replayTitle(playDate(play, this.deps.locale)));
    this.deps.controls.announce(this.deps.strings.replayNotice(playDate(play, this.deps.locale)));
    play.wheels.forEach((_, i) => this.spin(play, i, i));
    return true;
  }

  /** « Revoir »: the replay's past play once more, from its card. */
  replayAgain(): void {
    if (!round.isReplayOver(this.state)) return;
    const play = this.replaying!.play;
    this.endReplay();
    this.replay(play);
  }

  closeResult(): void {
    if (round.isReplayOver(this.state)) {
      this.endReplay();
      return;
    }
    if (this.state.phase !== 'revealed') return;
    this.deps.audio.play('click');
    this.deps.controls.hideResult();
    this.deps.controls.showTally(null);
    this.deps.table.clearCelebration();
    this.savedChoices.keepResultShown(null);
    this.fitStake();
    this.setState(round.toIdle());
    this.deps.controls.focus('play');
    void this.refreshAccount();
  }

  // ——— the account ———

  private async applyAccount(account: AccountResponse): Promise<void> {
    this.saleStatus = saleStatusOf(account);
    this.demo = account.demo;
    this.balanceCents = account.balanceCents;
    if (account.unfinishedPlay) {
      const play = this.withWheelsSeen(account.unfinishedPlay);
      this.tally.bought(play);
      // Its card says « resumed » when the server learns only now what the player saw.
      this.showPlay(play, play !== account.unfinishedPlay);
      // Said out loud and written on the table: the round on screen was left before.
      this.deps.controls.announce(this.deps.strings.resumeNotice);
      if (this.state.phase !== 'revealed') this.deps.controls.showMessage(this.deps.strings.resumeNotice);
      return;
    }
    const shown = await this.lastResultShown();
    if (shown) {
      // The card that was up before the reload, from the server's own record of the play.
      this.deps.controls.announce(this.deps.strings.lastResultNotice);
      this.showPlay(shown);
      // Credited before the reload: nothing to count up.
      this.balanceHeld = null;
      this.balanceCents = account.balanceCents;
      this.render();
      return;
    }
    const adjusted = this.fitStake();
    this.setState(round.toIdle());
    this.deps.controls.showMessage(this.idleMessage(adjusted));
  }

  /**
   * The play whose card was up when the page went away, if the server's history still
   * has it as the player's last play, finished with its four wheels launched.
   */
  private async lastResultShown(): Promise<Play | null> {
    const playId = this.savedChoices.resultShown();
    const token = this.session.token;
    if (!playId || !token) return null;
    const page = await this.deps.api.plays(token, 1);
    if (!page.ok) return null;
    const last = page.data.plays[0];
    if (last?.playId === playId && last.finished && last.launched.every(Boolean)) return last;
    this.savedChoices.keepResultShown(null);
    return null;
  }

  private async refreshAccount(): Promise<void> {
    const token = this.session.token;
    if (!token) return;
    const result = await this.deps.api.account(token);
    if (!result.ok) return;
    this.saleStatus = saleStatusOf(result.data);
    this.demo = result.data.demo;
    if (this.state.phase === 'idle') {
      this.balanceCents = result.data.balanceCents;
      this.deps.controls.showMessage(this.idleMessage(this.fitStake()));
    }
    this.render();
  }

  /** Whether a past play is being shown again (its wheels' ticks are silent too). */
  get replayingNow(): boolean {
    return this.state.phase === 'replay';
  }

  /** The play on the table whose wheels have not all stopped yet, or null (its result stays hidden). */
  liveRound(): string | null {
    const s = this.state;
    return s.play && (s.phase === 'ready' || s.phase === 'spinning') ? s.play.playId : null;
  }

  /** The session so far: minutes since it started, stakes paid, wins revealed, net result. */
  sessionSummary(): ReturnType<SessionTally['summary']> {
    return this.tally.summary();
  }

  /** « Alimenter mon compte »: only offered when the balance pays no stake on sale. */
  deposit(): void {
    if (this.balanceCents === null || !balanceTooLow(this.saleStatus, this.balanceCents)) return;
    const onSale = this.saleStatus.offers.filter((o) => o.onSale).map((o) => o.stakeCents);
    this.deps.onDeposit?.({ balanceCents: this.balanceCents, minStakeCents: Math.min(...onSale) });
  }

  /**
   * « Recharger la démo »: a demo player whose play money pays no stake gets the demo
   * starting balance back (the server books it); never offered for real money.
   */
  async reloadDemo(): Promise<void> {
    const token = this.session.token;
    if (!token || !this.demoReloadOffered() || this.reload?.sending) return;
    this.deps.audio.unlock();
    this.deps.audio.play('click');
    const reload: { id: string; sending: boolean } = { id: this.reload?.id ?? newPlayId(), sending: true };
    this.reload = reload;
    this.render();
    const result = await this.deps.api.reloadDemo(token, reload.id);
    // A server's answer is final; no answer at all: the next press sends the same id again.
    if (result.ok || result.kind === 'server') this.reload = null;
    else reload.sending = false;
    if (!result.ok) {
      this.render();
      this.deps.controls.showMessage(failureMessage(result, this.deps.strings));
      if (result.kind === 'server') void this.refreshAccount();
      return;
    }
    this.balanceCents = result.data.balanceCents;
    const adjusted = this.fitStake();
    const reloaded = this.deps.strings.demoReloaded(formatCents(result.data.balanceCents, this.deps.locale));
    this.render();
    this.deps.controls.showMessage(adjusted ? `${reloaded} ${adjusted}` : reloaded);
    this.deps.controls.announce(reloaded);
    this.deps.controls.focus('play');
  }

  private demoReloadOffered(): boolean {
    return (
      this.demo && this.state.phase === 'idle' && !this.pending && balanceTooLow(this.saleStatus, this.balanceCents)
    );
  }

  /** Reads the account again at an idle table (the page came back into view: a deposit, another tab). */
  refresh(): void {
    if (this.state.phase === 'idle' && !this.pending) void this.refreshAccount();
  }

  /**
   * The player's stake, or the biggest one the balance can pay when it cannot pay that
   * one; returns the line that says so (« Mise ajustée à 3 € »), or null when unchanged.
   */
  private fitStake(): string | null {
    const wanted = this.savedChoices.stake() ?? this.stake;
    this.stake = fittedStake(wanted, this.saleStatus, this.balanceCents);
    return this.stake === wanted ? null : this.deps.strings.stakeAdjusted(formatCents(this.stake, this.deps.locale));
  }

  /** The idle table's line: a stake adjusted to the balance, else why « Jouer » is off. */
  private idleMessage(adjusted: string | null): string | null {
    const offer = this.offerMessage();
    return adjusted && !balanceTooLow(this.saleStatus, this.balanceCents)
      ? offer
        ? `${adjusted} ${offer}`
        : adjusted
      : offer;
  }

  // ——— the round ———

  /**
   * The unfinished play with the wheels this page saw launched (remembered across the
   * reload) counted as launched too: their reports may have been lost offline, but the
   * player saw them turn and, all four, the result. The server is told what it missed.
   */
  private withWheelsSeen(play: Play): Play {
    const seen = this.savedChoices.launched(play.playId);
    if (!seen) return play;
    const launched = play.launched.map((l, i) => l || seen[i]!) as unknown as Play['launched'];
    if (launched.every((l, i) => l === play.launched[i])) return play;
    this.reports.launched(this.session.token!, play.playId, launched);
    return { ...play, launched };
  }

  private showPlay(play: Play, resumed = false): void {
    this.resumed = resumed;
    this.stake = play.stakeCents;
    // The big tiers' cues are fetched now, seconds before the last wheel stops.
    this.deps.audio.prepare(winLevel(play.winCents, play.stakeCents).cue);
    this.showSegments(play.wheels);
    const next = round.withPlay(play);
    next.wheels.forEach((w, i) => {
      if (w === 'stopped') this.deps.table.showStopped(i, play.wheels[i]!.stop, this.deps.random() * 2 - 1);
    });
    this.setState(next);
    this.showTally(play);
    if (next.phase === 'revealed') this.reveal(play);
  }

  /** The wheels stopped so far, tallied over the table. */
  private showTally(play: Play): void {
    const stopped = this.state.wheels.map((w) => w === 'stopped');
    this.deps.controls.showTally(liveTallyText(liveTally(play, stopped), this.deps.strings));
  }

  /**
   * The spin bed lasts until the longest spin now turning ends, `seconds` from now at the
   * latest; `replace`: that end instead of any later one (a slam-stop).
   */
  private extendSpinBed(seconds: number, replace = false): void {
    const now = this.now();
    const end = now + seconds * 1000;
    this.bedEndsAt = replace ? end : Math.max(this.bedEndsAt, end);
    this.deps.audio.endSpinBed((this.bedEndsAt - now) / 1000);
  }

  private launch(wheels: number[]): void {
    const play = this.state.play!;
    this.deps.audio.unlock();
    this.deps.audio.play('spin');
    this.setState(round.launch(this.state, wheels));
    const launched = round.launchedFlags(this.state);
    this.savedChoices.keepLaunched(play.playId, launched);
    this.reports.launched(this.session.token!, play.playId, launched);
    wheels.forEach((wheel, order) => this.spin(play, wheel, order));
  }

  /**
   * Turns wheel `i` to the play's stop, `order`-th of those launched together (each a
   * little after the one before); `stopped` follows when it rests.
   */
  private spin(play: Play, i: number, order: number): void {
    const plan = planSpin(this.deps.table.rotationDeg(i), play.wheels[i]!.stop, this.deps.random, this.pace(), order);
    this.extendSpinBed(spinLengthS(plan));
    void this.deps.table.spin(i, plan).then(() => this.stopped(play, i));
  }

  private stopped(play: Play, wheel: number): void {
    const replay = this.state.phase === 'replay' && this.replaying?.play.playId === play.playId;
    if (!replay && this.state.play?.playId !== play.playId) return;
    this.setState(round.wheelStopped(this.state, wheel));
    if (!this.state.wheels.includes('spinning')) this.extendSpinBed(0, true);
    this.showTally(play);
    const segment = play.wheels[wheel]!.segments[play.wheels[wheel]!.stop]!;
    if (!replay) {
      this.deps.audio.play('stop');
      if (segment.symbol === 'bell') this.deps.audio.play('bell');
    }
    const t = this.deps.strings;
    this.deps.controls.announce(t.wheelResult(wheel + 1, segment.points, t.symbols[segment.symbol]));
    if (this.state.phase === 'revealed' || round.isReplayOver(this.state)) this.reveal(play);
  }

  private reveal(play: Play): void {
    checkAgainstRules(play);
    const replay = this.state.phase === 'replay';
    // A replay shows the past play's figures; the balance stays today's. A play's credit
    // waits for its card: the bar keeps the balance after the stake until the card counts it up.
    if (!replay) {
      this.balanceCents = play.balanceAfterCents;
      this.balanceHeld = play.balanceBeforeCents - play.stakeCents;
      this.tally.revealed(play);
      // From the last stop, not from the card: a reload in between brings the card back.
      this.savedChoices.keepResultShown(play.playId);
    }
    celebrateResult(play, replay ? { ...this.out, audio: SILENT } : this.out);
    this.render();
    this.deps.later(CARD_DELAY_S[this.pace()], () =>
      // The card waits for the wheels it sums up: a lost graphics context comes back first.
      this.deps.table.whenDrawn(() => this.showCard(play, replay)),
    );
    announceResult(play, this.out);
    if (!play.finished && !replay) void this.reports.finished(this.session.token!, play.playId);
  }

  private showCard(play: Play, replay: boolean): void {
    if (replay) {
      if (round.isReplayOver(this.state) && this.replaying?.play.playId === play.playId) {
        this.deps.controls.showResult(play, this.deps.reducedMotion, playDate(play, this.deps.locale));
      }
      return;
    }
    if (this.state.play?.playId !== play.playId) return;
    this.deps.controls.showResult(play, this.deps.reducedMotion, undefined, this.resumed);
    this.balanceHeld = null;
    this.render();
  }

  /** Back to the table as it was before the replay: same segments, same angles. */
  private endReplay(): void {
    const replay = this.replaying!;
    this.replaying = null;
    this.deps.audio.play('click');
    this.deps.controls.hideResult();
    this.deps.controls.showTally(null);
    this.deps.table.clearCelebration();
    this.shownWheels = replay.restore(this.deps.table);
    this.setState(round.toIdle());
    this.deps.controls.showMessage(this.offerMessage());
    this.deps.controls.focus('play');
  }

  private showSegments(wheels: ShownWheels): void {
    this.shownWheels = wheels;
    this.deps.table.showSegments(wheels);
  }

  // ——— what the player may do now ———

  private canPlay(): boolean {
    return (
      round.canBuy(this.state) &&
      isOnSale(this.saleStatus, this.stake) &&
      canAfford(this.stake, this.balanceCents) &&
      this.session.token !== null
    );
  }

  private offerMessage(): string | null {
    return tableMessage(
      this.saleStatus,
      this.stake,
      this.balanceCents,
      new Date(),
      this.deps.strings,
      this.deps.locale,
    );
  }

  /**
   * The stakes as their buttons say them. Closed sales take every stake off sale: that is
   * no sell-out (no « épuisé »), and the message line says why and when.
   */
  private stakesShown(): readonly StakeOffer[] {
    return this.saleStatus.open ? this.saleStatus.offers : this.saleStatus.offers.map((o) => ({ ...o, onSale: true }));
  }

  private setState(next: round.RoundState): void {
    this.state = next;
    this.render();
    this.deps.onChange?.(next);
  }

  private render(): void {
    const s = this.state;
    const c = this.deps.controls;
    const idle = s.phase === 'idle' && !this.pending;
    c.setStakes(this.stakesShown(), this.pending?.stakeCents ?? this.stake, idle ? this.balanceCents : null);
    c.offerDeposit(idle && balanceTooLow(this.saleStatus, this.balanceCents));
    c.offerDemoReload(this.reload?.sending ? 'busy' : this.demoReloadOffered() ? 'offered' : 'none');
    const inRound = s.play && s.phase !== 'revealed';
    // A pending purchase holds its stake: shown as spent, marked as waiting for the server.
    const held = this.pending && this.balanceCents !== null ? this.balanceCents - this.pending.stakeCents : null;
    if (inRound) c.setBalance(s.play!.balanceBeforeCents - s.play!.stakeCents);
    else if (held !== null) c.setBalance(held, true);
    else c.setBalance(this.balanceHeld ?? this.balanceCents);
    c.setControls({
      canPlay: this.canPlay(),
      buying: s.phase === 'buying',
      pendingStakeCents: this.pending?.stakeCents ?? null,
      canGo: [0, 1, 2, 3].map((i) => round.canLaunch(s, i)),
      canGoAll: round.standingWheels(s).length > 0,
      stakesEnabled: s.phase === 'idle' && !this.pending,
    });
  }
}
