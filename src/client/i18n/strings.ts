import type { ErrorCode } from '../../contract/api.ts';
import type { TicketCheckName } from '../../proofs/index.ts';
import type { LogCheckName } from '../../transparency/index.ts';
import type { SymbolName } from '../../rules/unit.ts';

/** Every piece of text the player sees, once per language (fr.ts, en.ts). */
export interface Strings {
  title: string;
  loading: string;
  play: string;
  playBusy: string;
  goAll: string;
  goAllLabel: string;
  go: string;
  goWheelLabel: (wheel: number) => string;
  stakeLabel: (amount: string) => string;
  stakeHeading: string;
  balance: string;
  mute: string;
  unmute: string;
  /** The quick-spin switch's name (role switch: its state is said as on/off). */
  quickSpin: string;
  history: string;
  rules: string;
  close: string;
  wheelLabel: (wheel: number) => string;
  symbols: Record<SymbolName, string>;
  points: (points: number) => string;
  wheelResult: (wheel: number, points: number, symbol: string) => string;
  jeu1: string;
  jeu2: string;
  bellsFound: (bells: number) => string;
  pointsTotal: (points: number) => string;
  noWin: string;
  total: string;
  resultLine: (game: string, detail: string, win: string) => string;
  totalLine: (amount: string) => string;
  youWin: string;
  lostTitle: string;
  lostMessage: string;
  newRound: string;
  errors: Record<ErrorCode, string> & { network: string; unknown: string };
  salesClosed: string;
  soldOut: string;
  historyEmpty: string;
  historyMore: string;
  historyWin: string;
  historyStake: string;
  historyDate: string;
  historyCursors: (cursors: string) => string;
  historyUnfinished: string;
  /** A history row's description: activating it replays the play (Article 4.1). */
  historyReplay: string;
  /** « Vérifier ce ticket » in the history, and what the check found, in plain words. */
  ticketCheck: {
    action: string;
    busy: string;
    verified: (position: number, count: number) => string;
    refuted: string;
    noProof: string;
    /** The proof, the blocks or the check's own code could not be fetched (nothing is charged by a check). */
    offline: string;
    /** One sentence per check, passed or failed; `lot` is the unit's lot, formatted. */
    checks: Record<TicketCheckName | LogCheckName, (ok: boolean, lot: string) => string>;
  };
  replayNotice: (date: string) => string;
  replayTitle: (date: string) => string;
  replayBack: string;
  /** On a replay's card: the same past play on the wheels once more. */
  replayAgain: string;
  rulesIntro: string[];
  rulesJeu1Heading: string;
  rulesJeu2Heading: string;
  rulesBlockHeading: (stake: string) => string;
  rulesBells: (bells: number) => string;
  rulesPoints: (min: number, max: number) => string;
  rulesLots: string;
  rulesAmount: string;
  rulesOdds: (oneIn: string, payout: string) => string;
  rulesLosing: string;
  resumeNotice: string;
  rendererLabel: string;
  // ——— issue 15: what a player sees and hears ———
  /** Said once « Jouer » is paid: the stake, the new balance, what to do next. */
  boughtNotice: (stake: string, balance: string) => string;
  /** The result card's title when the lot equals the stake. */
  refundTitle: string;
  /** The list of the four segments under the cursors, on the result card. */
  cursorsHeading: string;
  /** Folds the result card so the four stopped wheels show; and unfolds it. */
  seeWheels: string;
  seeResult: string;
  /** Said when a reload finds the last round's result card. */
  lastResultNotice: string;
  // The rules panel (Articles 3, 4.6, 4.7), every stake at once.
  rulesStakeColumn: (stake: string) => string;
  rulesFind: string;
  rulesCollect: string;
  rulesSum: string;
  rulesLotsHeading: string;
  rulesTotal: string;
  rulesLotCount: (count: number, formatted: string) => string;
  rulesBlockTotal: (winningUnits: string) => string;
  rulesAddedOnly: (amounts: string[]) => string;
  rulesOddsDetail: (winning: string, block: string) => string;
  // Sales window, sold-out stakes, a balance too low for any stake.
  salesOpenOn: (date: string) => string;
  salesClosedOn: (date: string) => string;
  salesWindowDates: (opens: string, closes: string) => string;
  balanceTooLow: (balance: string, smallest: string) => string;
  deposit: string;
  /** « Recharger la démo »: a demo player's play money back to the starting balance (demo only). */
  reloadDemo: string;
  reloadDemoBusy: string;
  demoReloaded: (balance: string) => string;
  soldOutLabel: (amount: string) => string;
  // Responsible gaming, demo money, session figures.
  adultsOnly: string;
  adultsOnlyLabel: string;
  riskLine: string;
  limitsLink: string;
  demo: string;
  demoLabel: string;
  sessionLine: (minutes: string, staked: string, won: string, net: string) => string;
  sessionMinutes: (minutes: number) => string;
  // History rows.
  historyRef: (ref: string) => string;
  historySegment: (points: number, symbol: string) => string;
  historyLive: string;
  /** The transparency log's head this page saw: its size and the start of its root hash, to compare (gossip). */
  logHead: (entries: string, hashStart: string) => string;
  historyLeft: string;
  /** Shown over the page while the portal holds the game paused. */
  paused: string;
  // ——— issue 30: the show ———
  /** The wheels stopped so far, as they stop: bells found and points collected (« 2 cloches · 650 pts »). */
  liveTally: (bells: number, points: number) => string;
  /** The takeover's headline for a big, mega or jackpot lot. */
  takeoverTitle: Record<'big' | 'mega' | 'jackpot', string>;
  /** Under the takeover: a tap ends it. */
  takeoverSkip: string;
  // ——— issue 31: player-facing defects ———
  /** A purchase whose answer was lost: it is pending, and resent by itself. */
  purchasePending: (stake: string) => string;
  /** « Jouer » while a purchase is pending: what pressing it does (short), and its accessible name. */
  resumePurchase: string;
  resumePurchaseLabel: (stake: string) => string;
  /** The result card of a round found unfinished after a reload. */
  resumedTitle: string;
  /** A remembered stake the balance cannot pay, lowered to the biggest one it pays. */
  stakeAdjusted: (stake: string) => string;
  /** The balance while a purchase is pending. */
  balancePending: string;
}
