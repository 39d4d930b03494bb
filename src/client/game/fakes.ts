import type {
  AccountResponse,
  DemoReloadResponse,
  Launched,
  Play,
  PlayResponse,
  PlaysPage,
  StakeOffer,
} from '../../contract/api.ts';
import { evaluateWheels } from '../../rules/evaluate.ts';
import type { StakeCents } from '../../rules/stakes.ts';
import type { Segment, SymbolName } from '../../rules/unit.ts';
import type { GameApi } from '../net/api.ts';
import type { ApiFailure, ApiResult } from '../net/http.ts';
import type { AudioOut, Cue } from './audioOut.ts';
import { SAFE_FRACTION, SEGMENT_DEG, segmentUnderCursor, type SpinPlan } from './spin.ts';
import type { ControlsState, ControlsView, DemoReloadOffer, FocusTarget, ShownWheels, TableView } from './views.ts';
import type { WinLevel } from './winLevels.ts';

/**
 * Fakes of the controller's views and of the network, for its unit tests: each records
 * what it was asked, and the network answers from a script.
 */

export const NETWORK_DOWN: ApiFailure = { ok: false, kind: 'network', message: 'offline' };

export function refusal(code: Extract<ApiFailure, { kind: 'server' }>['code'], message = ''): ApiFailure {
  return { ok: false, kind: 'server', status: 409, code, message };
}

const ok = <T>(data: T): ApiResult<T> => ({ ok: true, data });

/** Six segments of `symbol` worth `points` each, with a bell at `bellAt` when given. */
function wheel(
  stop: number,
  points: number,
  symbol: SymbolName,
  bellAt?: number,
): { segments: Segment[]; stop: number } {
  const segments = Array.from({ length: 6 }, (_, i): Segment => ({ symbol: i === bellAt ? 'bell' : symbol, points }));
  return { segments, stop };
}

/**
 * A play whose figures are the rules' own for its wheels (so the controller sees no
 * disagreement): `points` under each cursor, `bells` of the four on a bell.
 */
export function makePlay(options: {
  playId?: string;
  stops?: number[];
  points?: number;
  bells?: number;
  stakeCents?: StakeCents;
  balanceBeforeCents?: number;
  launched?: Launched;
  finished?: boolean;
  createdAt?: string;
}): Play {
  const stops = options.stops ?? [1, 2, 3, 4];
  const stakeCents = options.stakeCents ?? 100;
  const bells = options.bells ?? 0;
  const wheels = stops.map((stop, i) => wheel(stop, options.points ?? 50, 'cupcake', i < bells ? stop : undefined));
  const seen = evaluateWheels(wheels, stakeCents);
  const balanceBeforeCents = options.balanceBeforeCents ?? 10_000;
  return {
    playId: options.playId ?? 'play-1',
    stakeCents,
    createdAt: options.createdAt ?? '2026-03-14T15:09:26Z',
    wheels,
    jeu1: { bells: seen.bells, winCents: seen.jeu1WinCents },
    jeu2: { points: seen.points, winCents: seen.jeu2WinCents },
    winCents: seen.winCents,
    balanceBeforeCents,
    balanceAfterCents: balanceBeforeCents - stakeCents + seen.winCents,
    launched: options.launched ?? [false, false, false, false],
    finished: options.finished ?? false,
  };
}

export function makeAccount(options: Partial<AccountResponse> = {}): AccountResponse {
  const stakes: StakeOffer[] = [100, 200, 300, 500].map((s) => ({ stakeCents: s as StakeCents, onSale: true }));
  return {
    playerId: 'alice',
    balanceCents: 10_000,
    stakes,
    sales: { open: true, opensAt: null, closesAt: null, message: '' },
    demo: true,
    unfinishedPlay: null,
    ...options,
  };
}

type Answer<T> = ApiResult<T> | ((...args: never[]) => ApiResult<T>);

/** The game server, answering from scripts: each call takes the next scripted answer, else the default. */
export class FakeApi implements GameApi {
  readonly calls: { name: string; args: unknown[] }[] = [];
  accountNow: AccountResponse = makeAccount();
  /** The play « Jouer » sells when nothing is scripted. */
  nextPlay: Play = makePlay({});
  readonly script = {
    openSession: [] as ApiResult<{ token: string; playerId: string; balanceCents: number }>[],
    account: [] as ApiResult<AccountResponse>[],
    play: [] as ApiResult<PlayResponse>[],
    progress: [] as ApiResult<unknown>[],
    finish: [] as ApiResult<unknown>[],
    plays: [] as ApiResult<PlaysPage>[],
    reloadDemo: [] as ApiResult<DemoReloadResponse>[],
  };

  callsOf(name: string): unknown[][] {
    return this.calls.filter((c) => c.name === name).map((c) => c.args);
  }

  private answer<T>(name: keyof FakeApi['script'], args: unknown[], fallback: Answer<T>): Promise<ApiResult<T>> {
    this.calls.push({ name, args });
    const scripted = this.script[name].shift() as ApiResult<T> | undefined;
    return Promise.resolve(scripted ?? (typeof fallback === 'function' ? fallback() : fallback));
  }

  openSession(launchToken?: string) {
    return this.answer(
      'openSession',
      [launchToken],
      ok({ token: 'token-new', playerId: 'alice', balanceCents: 10_000 }),
    );
  }
  account(token: string) {
    return this.answer('account', [token], () => ok(this.accountNow));
  }
  play(token: string, stakeCents: StakeCents, playId: string) {
    return this.answer('play', [token, stakeCents, playId], () =>
      ok({ play: { ...this.nextPlay, playId, stakeCents }, balanceCents: this.nextPlay.balanceAfterCents }),
    );
  }
  progress(token: string, playId: string, launched: Launched) {
    return this.answer('progress', [token, playId, [...launched]], ok({}));
  }
  finish(token: string, playId: string) {
    return this.answer('finish', [token, playId], ok({}));
  }
  plays() {
    return this.answer('plays', [], ok<PlaysPage>({ plays: [], nextBefore: null }));
  }
  reloadDemo(token: string, reloadId: string) {
    return this.answer('reloadDemo', [token, reloadId], ok<DemoReloadResponse>({ balanceCents: 10_000 }));
  }
}

/** The drawn table: wheels turn to their plan's end when the test lands them. */
export class FakeTable implements TableView {
  readonly rotations = [0, 0, 0, 0];
  shown: ShownWheels = null;
  readonly segmentsShown: ShownWheels[] = [];
  readonly spins: { wheel: number; plan: SpinPlan }[] = [];
  readonly celebrations: { level: WinLevel; glowing: readonly boolean[] }[] = [];
  cleared = 0;
  private readonly spinning = new Map<number, () => void>();
  /** The graphics context is lost: `whenDrawn` waits for `restore()`. */
  lost = false;
  private readonly waitingForDrawn: (() => void)[] = [];

  whenDrawn(fn: () => void): void {
    if (this.lost) this.waitingForDrawn.push(fn);
    else fn();
  }
  restore(): void {
    this.lost = false;
    for (const fn of this.waitingForDrawn.splice(0)) fn();
  }

  showSegments(wheels: ShownWheels): void {
    this.shown = wheels;
    this.segmentsShown.push(wheels);
  }
  showStopped(wheel: number, stop: number, offset: number): void {
    this.rotations[wheel] = -stop * SEGMENT_DEG + offset * (SAFE_FRACTION / 2) * SEGMENT_DEG;
  }
  rotationDeg(wheel: number): number {
    return this.rotations[wheel]!;
  }
  spin(wheel: number, plan: SpinPlan): Promise<void> {
    this.spins.push({ wheel, plan });
    return new Promise((resolve) =>
      this.spinning.set(wheel, () => {
        this.rotations[wheel] = plan.to;
        resolve();
      }),
    );
  }
  celebrate(level: WinLevel, glowing: readonly boolean[]): void {
    this.celebrations.push({ level, glowing });
  }
  clearCelebration(): void {
    this.cleared++;
  }

  /** Wheels still turning. */
  get turning(): number[] {
    return [...this.spinning.keys()].sort();
  }
  /** Brings the given wheels (all turning ones by default) to rest. */
  finishSpins(): void {
    void this.land();
  }
  async land(...wheels: number[]): Promise<void> {
    for (const wheel of wheels.length ? wheels : this.turning) {
      const rest = this.spinning.get(wheel);
      if (!rest) throw new Error(`wheel ${wheel} is not spinning`);
      this.spinning.delete(wheel);
      rest();
    }
    await settle();
  }
  /** The segment under each cursor now. */
  cursors(): number[] {
    return this.rotations.map(segmentUnderCursor);
  }
}

/** The DOM controls: the last state of each, and every message, announcement and card. */
export class FakeControls implements ControlsView {
  stakes: { offers: readonly StakeOffer[]; selected: StakeCents; maxCents: number | null } | null = null;
  deposit = false;
  demoReload: DemoReloadOffer = 'none';
  controls: ControlsState | null = null;
  balance: number | null | undefined = undefined;
  balancePending = false;
  muted: boolean | null = null;
  quickSpin: boolean | null = null;
  readonly messages: (string | null)[] = [];
  /** Every tally line shown over the table, in order. */
  readonly tallies: (string | null)[] = [];
  /** Every balance the bar showed, in order. */
  readonly balances: (number | null)[] = [];
  readonly announced: string[] = [];
  readonly results: { playId: string; replayOf?: string; resumed?: true }[] = [];
  hidden = 0;
  readonly focused: FocusTarget[] = [];

  get message(): string | null | undefined {
    return this.messages.at(-1);
  }
  setStakes(offers: readonly StakeOffer[], selected: StakeCents, maxCents: number | null): void {
    this.stakes = { offers, selected, maxCents };
  }
  offerDeposit(shown: boolean): void {
    this.deposit = shown;
  }
  offerDemoReload(offer: DemoReloadOffer): void {
    this.demoReload = offer;
  }
  setControls(c: ControlsState): void {
    this.controls = c;
  }
  setBalance(cents: number | null, pending = false): void {
    this.balance = cents;
    this.balances.push(cents);
    this.balancePending = pending;
  }
  showTally(text: string | null): void {
    this.tallies.push(text);
  }
  setMuted(muted: boolean): void {
    this.muted = muted;
  }
  setQuickSpin(on: boolean): void {
    this.quickSpin = on;
  }
  showMessage(text: string | null): void {
    this.messages.push(text);
  }
  announce(text: string): void {
    this.announced.push(text);
  }
  showResult(play: Play, _reducedMotion: boolean, replayOf?: string, resumed?: boolean): void {
    this.results.push({
      playId: play.playId,
      ...(replayOf === undefined ? {} : { replayOf }),
      ...(resumed ? { resumed: true as const } : {}),
    });
  }
  hideResult(): void {
    this.hidden++;
  }
  focus(target: FocusTarget): void {
    this.focused.push(target);
  }
}

export class FakeAudio implements AudioOut {
  readonly cues: Cue[] = [];
  /** Each endSpinBed call's seconds, in order. */
  readonly bedEnds: number[] = [];
  readonly prepared: Cue[] = [];
  muted = false;
  unlocks = 0;
  play(cue: Cue): void {
    this.cues.push(cue);
  }
  endSpinBed(seconds: number): void {
    this.bedEnds.push(seconds);
  }
  prepare(cue: Cue): void {
    this.prepared.push(cue);
  }
  setMuted(muted: boolean): void {
    this.muted = muted;
  }
  unlock(): void {
    this.unlocks++;
  }
}

/** Calls put off with `later`, run when the test says. */
export class FakeClock {
  readonly pending: { seconds: number; fn: () => void }[] = [];
  readonly waits: number[] = [];
  readonly later = (seconds: number, fn: () => void): void => void this.pending.push({ seconds, fn });
  /** `wait` resolves at once, noting how long it was asked to wait. */
  readonly wait = (ms: number): Promise<void> => {
    this.waits.push(ms);
    return Promise.resolve();
  };
  runLater(): void {
    for (const { fn } of this.pending.splice(0)) fn();
  }
  /** A purchase's automatic resends, each run when the test says (`runRetries`). */
  readonly retries: { ms: number; fn: () => void }[] = [];
  readonly retryAfter = (ms: number, fn: () => void): void => void this.retries.push({ ms, fn });
  runRetries(): void {
    for (const { fn } of this.retries.splice(0)) fn();
  }
  /** The browser's `online` listeners: `goOnline` calls them. */
  readonly onlineListeners: (() => void)[] = [];
  readonly onOnline = (listener: () => void): void => void this.onlineListeners.push(listener);
  goOnline(): void {
    for (const listener of this.onlineListeners) listener();
  }
}

export function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

/** Lets every pending promise callback run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
