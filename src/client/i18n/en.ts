import { formatCount } from '../../rules/index.ts';
import type { Strings } from './strings.ts';
import { typesetStrings } from './typography.ts';

const plural = (n: number, one: string, many: string) => (n > 1 ? many : one);

/** As written; `en` below is what the player reads (typeset). */
const written: Strings = {
  title: 'SPINCAKE',
  loading: 'Baking the cakes…',
  play: 'Play',
  playBusy: 'Buying…',
  goAll: 'GO',
  goAllLabel: 'GO',
  go: 'GO',
  goWheelLabel: (w) => `GO wheel ${w}`,
  stakeLabel: (amount) => `Stake ${amount}`,
  stakeHeading: 'Stake',
  balance: 'Balance',
  mute: 'Mute',
  unmute: 'Unmute',
  quickSpin: 'Quick spin',
  history: 'History',
  rules: 'Rules',
  close: 'Close',
  wheelLabel: (w) => `Wheel ${w}`,
  symbols: {
    bell: 'bell',
    cupcake: 'cupcake',
    macaron: 'macaron',
    donut: 'donut',
    cherry: 'cherry',
    croissant: 'croissant',
  },
  points: (p) => `${formatCount(p, 'en')} points`,
  wheelResult: (w, p, s) => `Wheel ${w}: ${p} points, ${s}`,
  jeu1: 'GAME 1',
  jeu2: 'GAME 2',
  bellsFound: (b) => (b === 0 ? 'No bells' : `${b} ${plural(b, 'bell', 'bells')}`),
  pointsTotal: (p) => `${formatCount(p, 'en')} points`,
  noWin: 'No win',
  total: 'Total win',
  resultLine: (game, detail, win) => `${game}: ${detail}, ${win}`,
  totalLine: (amount) => `Total win: ${amount}`,
  youWin: 'You win!',
  lostTitle: 'No win',
  lostMessage: 'This ticket does not win.',
  newRound: 'New round',
  errors: {
    INVALID_INPUT: 'The server refused the request.',
    NO_SESSION: 'Your session has expired. Reload the page.',
    INSUFFICIENT_BALANCE: 'Not enough balance for this stake. Pick a smaller one.',
    SALES_CLOSED: 'Sales are closed.',
    SOLD_OUT: 'No tickets left at this stake: pick another one.',
    PLAY_ID_REUSED: 'This purchase was already made with another stake.',
    NOT_FOUND: 'Play not found.',
    RATE_LIMITED: 'Too many requests: wait a moment.',
    LIMIT_REACHED: 'Play limit reached: your account takes no more stakes for now. Nothing was debited.',
    PLAYER_BLOCKED: 'Account blocked: your account cannot place stakes. Nothing was debited. Contact customer support.',
    WALLET_UNAVAILABLE: 'Payment service unavailable — try again. Nothing was debited.',
    INTERNAL: 'The server had a problem. Try again in a moment.',
    REQUEST_TIMEOUT: 'The request took too long to reach the server. Try again: nothing was debited.',
    SHUTTING_DOWN: 'The server is restarting. Try again in a moment: nothing was debited.',
    DEMO_ONLY: 'Only a demo balance can be reloaded.',
    BALANCE_NOT_LOW: 'Your demo balance still pays a stake: the demo reloads once it runs out.',
    network: 'Cannot reach the server. Check your network and try again: you will be charged only once.',
    unknown: 'Something went wrong.',
  },
  salesClosed: 'Sales closed',
  soldOut: 'sold out',
  historyEmpty: 'No plays yet.',
  historyMore: 'Older plays',
  historyWin: 'Win',
  historyStake: 'Stake',
  historyDate: 'Date',
  historyCursors: (c) => `Under the cursors: ${c}`,
  historyReplay: 'Replay this play on the wheels',
  ticketCheck: {
    action: 'Check this ticket',
    busy: 'Checking…',
    verified: (position, count) =>
      `Ticket verified: it is ticket no. ${formatCount(position, 'en')} of ${formatCount(count, 'en')} in its block, in the sale order fixed before the first sale.`,
    refuted: 'Check failed: this ticket does not match the published commitment.',
    noProof: 'This ticket comes from no block (a test play): it has no proof.',
    offline: 'The check needs the network. Check your connection and try again.',
    checks: {
      shape: (ok) => (ok ? 'The proof received is complete.' : 'The proof received is unreadable or incomplete.'),
      lot: (ok, lot) =>
        ok
          ? `By the rules, the wheels under the cursors give the ticket's win (${lot}).`
          : `By the rules, the wheels under the cursors do not give the win announced (${lot}).`,
      leaf: (ok) =>
        ok
          ? 'Your ticket (its wheels, cursors, win and place) is exactly the one the proof describes.'
          : 'Your ticket (its wheels, cursors, win and place) is not the one the proof describes.',
      path: (ok) =>
        ok
          ? 'This ticket is indeed the one planned in the block published before the sale.'
          : 'This ticket is not the one planned in the block published before the sale.',
      published: (ok) =>
        ok
          ? 'The block is the one the game published before its first sale.'
          : 'The block is not the one the game published before its first sale.',
      play: (ok) =>
        ok ? 'The ticket proven is the play in your history.' : 'The ticket proven is not the play in your history.',
      entry: (ok) =>
        ok
          ? 'The transparency log holds this block’s commitment, with this root.'
          : 'The transparency log does not hold this block’s commitment with this root.',
      inclusion: (ok) =>
        ok ? 'The commitment is in the log’s signed state.' : 'The commitment is not in the log’s signed state.',
      signature: (ok) =>
        ok ? 'The log’s state is signed by the log’s key.' : 'The signature of the log’s state is wrong.',
      key: (ok) => (ok ? 'This key is the one the server publishes.' : 'This key is not the one the server publishes.'),
      'head time': (ok) =>
        ok
          ? 'This state of the log was signed before the ticket was sold.'
          : 'This state of the log was not signed before the ticket was sold.',
      'played at': (ok) =>
        ok ? 'The proven time of sale is your play’s.' : 'The proven time of sale is not your play’s.',
    },
  },
  replayNotice: (date) => `Replay of the play of ${date}.`,
  replayTitle: (date) => `Replay — play of ${date}`,
  replayAgain: 'Replay again',
  replayBack: 'Back to the game',
  historyUnfinished: 'in progress',
  rulesIntro: [
    'Pick a stake (€1, €2, €3 or €5) then “Play”: the stake is debited and you get a ticket.',
    'Launch each wheel with its own “GO”, or all those left with the common “GO”.',
    'GAME 1: count the bells under the cursors. GAME 2: add up the points under the cursors; 400 points or more wins.',
    'The two games’ wins add up to one single lot. If you miss the end of a round, its result is in the history.',
  ],
  rulesJeu1Heading: 'GAME 1 — bells',
  rulesJeu2Heading: 'GAME 2 — points',
  rulesBlockHeading: (stake) => `Block of units at ${stake}`,
  rulesBells: (b) => `${b} ${plural(b, 'bell', 'bells')}`,
  rulesPoints: (min, max) =>
    min === max ? `${formatCount(min, 'en')} points` : `${formatCount(min, 'en')} to ${formatCount(max, 'en')} points`,
  rulesLots: 'Lots',
  rulesAmount: 'Amount',
  rulesOdds: (oneIn, payout) => `Odds of winning: 1 in ${oneIn}. Payout rate: ${payout}.`,
  rulesLosing: 'losing tickets',
  resumeNotice: 'Round in progress resumed.',
  rendererLabel: 'Renderer',
  // ——— issue 15: what a player sees and hears ———
  boughtNotice: (stake, balance) => `Stake of ${stake} paid. New balance: ${balance}. The wheels can be launched: GO.`,
  refundTitle: 'Stake refunded',
  cursorsHeading: 'Under the cursors',
  seeWheels: 'See the wheels',
  seeResult: 'See the result',
  lastResultNotice: 'Result of your last round.',
  rulesStakeColumn: (stake) => `Stake ${stake}`,
  rulesFind: 'You find',
  rulesCollect: 'You collect',
  rulesSum: 'The wins of GAME 1 and GAME 2 in one unit add up to one single, indivisible lot.',
  rulesLotsHeading: 'Lots, odds and payout rate',
  rulesTotal: 'Total',
  rulesLotCount: (n, formatted) => `${formatted} ${plural(n, 'lot of', 'lots of')}`,
  rulesBlockTotal: (winning) => `${winning} lots making a total of`,
  rulesAddedOnly: (amounts) =>
    `The amounts of ${amounts.join(', ').replace(/, ([^,]*)$/, ' and $1')} can only be reached by adding a GAME 1 win and a GAME 2 win within one unit.`,
  rulesOddsDetail: (winning, block) =>
    `Each block holds ${block} units, ${winning} of them winning. A lot is the unit's whole win.`,
  salesOpenOn: (date) => `Sales open on ${date}.`,
  salesClosedOn: (date) => `Sales closed on ${date}.`,
  salesWindowDates: (opens, closes) => `Sales open from ${opens} to ${closes}.`,
  balanceTooLow: (balance, smallest) =>
    `Your balance (${balance}) is too low to play: the smallest stake is ${smallest}.`,
  deposit: 'Top up my account',
  reloadDemo: 'Reload demo',
  reloadDemoBusy: 'Reloading…',
  demoReloaded: (balance) => `Demo reloaded: your demo balance is ${balance}.`,
  soldOutLabel: (amount) => `Stake ${amount}, sold out`,
  adultsOnly: '18+',
  adultsOnlyLabel: 'Adults only',
  riskLine: 'Gambling involves risks: debt, isolation, addiction. For help, call 09 74 75 13 13 (standard rate call)',
  limitsLink: 'Gaming limits and self-exclusion',
  demo: 'DEMO',
  demoLabel: 'Demo balance: play money',
  sessionLine: (minutes, staked, won, net) =>
    `Session running for ${minutes} · Stakes: ${staked} · Wins: ${won} · Net result: ${net}`,
  sessionMinutes: (m) => (m < 1 ? 'under a minute' : m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`),
  historyRef: (ref) => `Ticket ref.: ${ref}`,
  historySegment: (points, symbol) => `${formatCount(points, 'en')} points (${symbol})`,
  historyLive: 'Result shown once the four wheels have stopped.',
  logHead: (entries, hashStart) =>
    `Public block log seen here: ${entries}\u00a0entries, fingerprint ${hashStart}… (the same for every player: compare it)`,
  historyLeft: 'left before the end: result recorded',
  paused: 'Game paused',
  // ——— issue 30: the show ———
  liveTally: (bells, points) =>
    `${bells}\u00a0${bells === 1 ? 'bell' : 'bells'} · ${formatCount(points, 'en')}\u00a0pts`,
  takeoverTitle: { big: 'Big win!', mega: 'Mega win!', jackpot: 'JACKPOT!' },
  takeoverSkip: 'Tap to continue',
  purchasePending: (stake) =>
    `Purchase pending — retrying… The server cannot be reached right now: your ${stake} purchase will be sent again by itself as soon as the network is back. You will be charged only once.`,
  resumePurchase: 'Resume purchase',
  resumePurchaseLabel: (stake) => `Resume the ${stake} purchase`,
  resumedTitle: 'Round resumed',
  stakeAdjusted: (stake) => `Stake adjusted to ${stake}: your balance does not cover the stake you chose.`,
  balancePending: 'Purchase pending: stake held',
};

export const en: Strings = typesetStrings(written, 'en');
