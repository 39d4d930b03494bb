import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Play } from '../../contract/api.ts';
import { fr } from '../i18n/fr.ts';
import { GameController } from './controller.ts';
import {
  FakeApi,
  FakeAudio,
  FakeClock,
  FakeControls,
  FakeTable,
  makeAccount,
  makePlay,
  memoryStorage,
  NETWORK_DOWN,
  refusal,
  settle,
} from './fakes.ts';
import { mulberry32 } from '../../common/seededRandom.ts';
import { restingPlace, spinLengthS } from './spin.ts';

const STORED = { 'spincake.token': 'token-kept' };

function setUp(
  options: {
    storage?: Record<string, string>;
    launchToken?: string | null;
    onDeposit?: (request: { balanceCents: number; minStakeCents: number }) => void;
  } = {},
) {
  const api = new FakeApi();
  const table = new FakeTable();
  const controls = new FakeControls();
  const audio = new FakeAudio();
  const clock = new FakeClock();
  const storage = memoryStorage(options.storage ?? STORED);
  const phases: string[] = [];
  const controller = new GameController({
    api,
    table,
    controls,
    audio,
    strings: fr,
    locale: 'fr',
    storage,
    random: mulberry32(7),
    reducedMotion: false,
    launchToken: options.launchToken ?? null,
    later: clock.later,
    wait: clock.wait,
    retryAfter: clock.retryAfter,
    onOnline: clock.onOnline,
    onChange: (state) => phases.push(state.phase),
    ...(options.onDeposit ? { onDeposit: options.onDeposit } : {}),
  });
  return { api, table, controls, audio, clock, storage, controller, phases };
}

type Game = ReturnType<typeof setUp>;

/** Starts the game and buys `play` (its playId becomes the one the controller made). */
async function buy(game: Game, play: Play): Promise<Play> {
  game.api.nextPlay = play;
  await game.controller.start();
  await game.controller.play();
  return game.controller.round.play!;
}

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  // Every play here agrees with the rules: the controller must never see a disagreement.
  expect(consoleError).not.toHaveBeenCalled();
  consoleError.mockRestore();
});

describe('GameController start-up', () => {
  it('resumes the remembered session and shows the account', async () => {
    const game = setUp();
    await game.controller.start();
    expect(game.api.callsOf('account')).toEqual([['token-kept']]);
    expect(game.api.callsOf('openSession')).toEqual([]);
    expect(game.controller.round.phase).toBe('idle');
    expect(game.controls.balance).toBe(10_000);
    expect(game.controls.message).toBeNull();
    expect(game.controls.controls).toMatchObject({ canPlay: true, canGoAll: false, stakesEnabled: true });
  });

  it('opens a session with the launch token when none is remembered, and remembers it', async () => {
    const game = setUp({ storage: {}, launchToken: 'launch.sig' });
    await game.controller.start();
    expect(game.api.callsOf('openSession')).toEqual([['launch.sig']]);
    expect(game.storage.map.get('spincake.token')).toBe('token-new');
    expect(game.controller.token).toBe('token-new');
  });

  it('opens a new session when the server no longer knows the remembered one', async () => {
    const game = setUp();
    game.api.script.account.push(refusal('NO_SESSION'));
    await game.controller.start();
    expect(game.api.callsOf('account')).toEqual([['token-kept'], ['token-new']]);
    expect(game.controller.token).toBe('token-new');
  });

  it('retries every 2 s while the network is down, saying so', async () => {
    const game = setUp();
    game.api.script.account.push(NETWORK_DOWN, NETWORK_DOWN);
    await game.controller.start();
    expect(game.clock.waits).toEqual([2_000, 2_000]);
    expect(game.controls.messages).toEqual([fr.errors.network, fr.errors.network, null, null]);
    expect(game.controller.round.phase).toBe('idle');
  });

  it('says when sales are closed, in the operator’s words, and sells nothing', async () => {
    const game = setUp();
    const closedStakes = makeAccount().stakes.map((s) => ({ ...s, onSale: false }));
    game.api.accountNow = makeAccount({
      stakes: closedStakes,
      sales: { open: false, opensAt: null, closesAt: null, message: 'Fermé' },
    });
    await game.controller.start();
    expect(game.controls.message).toBe('Fermé');
    expect(game.controls.controls?.canPlay).toBe(false);
    // Off sale because sales are closed, not sold out: no stake says « épuisé ».
    expect(game.controls.stakes?.offers.every((o) => o.onSale)).toBe(true);
    await game.controller.play();
    expect(game.api.callsOf('play')).toEqual([]);
  });
});

describe('GameController round', () => {
  it('launches each wheel with its own GO, in any order, and lands each on the server’s stop', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({ stops: [1, 2, 3, 4], points: 100 }));
    expect(game.controller.round.phase).toBe('ready');
    expect(game.controls.balance).toBe(10_000 - 100);
    expect(game.table.shown).toBe(play.wheels);

    for (const [i, wheel] of [2, 0, 3, 1].entries()) {
      game.controller.go(wheel);
      expect(game.table.turning).toEqual([wheel]);
      await game.table.land(wheel);
      expect(game.table.cursors()[wheel]).toBe(play.wheels[wheel]!.stop);
      expect(game.controller.round.phase).toBe(i < 3 ? 'spinning' : 'revealed');
    }
    expect(game.api.callsOf('progress')).toEqual([
      ['token-kept', play.playId, [false, false, true, false]],
      ['token-kept', play.playId, [true, false, true, false]],
      ['token-kept', play.playId, [true, false, true, true]],
      ['token-kept', play.playId, [true, true, true, true]],
    ]);
    await game.controller.reportsSent();
    expect(game.api.callsOf('finish')).toEqual([['token-kept', play.playId]]);
    expect(game.table.cursors()).toEqual([1, 2, 3, 4]);
    // The credit waits for the card (which counts it up): never in the bar over an empty table.
    expect(game.controls.balance).toBe(play.balanceBeforeCents - play.stakeCents);
    game.clock.runLater();
    expect(game.controls.balance).toBe(play.balanceAfterCents);
    expect(game.controls.announced).toContain(fr.wheelResult(3, 100, fr.symbols.cupcake));
  });

  it('shows the card a moment after the last stop, then goes back to an idle table', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({}));
    game.controller.goAll();
    await game.table.land();
    expect(game.controls.results).toEqual([]);
    expect(game.clock.pending.map((p) => p.seconds)).toEqual([0.6]);
    game.clock.runLater();
    expect(game.controls.results).toEqual([{ playId: play.playId }]);

    game.controller.closeResult();
    await settle();
    expect(game.controls.hidden).toBe(1);
    expect(game.controller.round.phase).toBe('idle');
    expect(game.api.callsOf('account')).toHaveLength(2);
  });

  it('says what was paid and the new balance, then moves the focus to the player’s next action', async () => {
    const game = setUp();
    game.api.nextPlay = makePlay({ stakeCents: 200, balanceBeforeCents: 1_000 });
    await game.controller.start();
    game.controller.selectStake(200);
    await game.controller.play();
    expect(game.controls.announced.at(-1)).toBe(fr.boughtNotice('2\u00a0€', '8\u00a0€'));
    expect(game.controls.focused).toEqual(['goAll']);
    game.controller.go(1);
    expect(game.controls.focused.at(-1)).toBe(2);
    game.controller.go(3);
    expect(game.controls.focused.at(-1)).toBe(0);
    game.controller.go(0);
    expect(game.controls.focused.at(-1)).toBe(2);
    game.controller.go(2);
    expect(game.controls.focused).toHaveLength(4);
    await game.table.land();
    game.clock.runLater();
    game.controller.closeResult();
    expect(game.controls.focused.at(-1)).toBe('play');
  });

  it('lands the turning wheels at once on the server’s stops when the player hurries', async () => {
    const game = setUp();
    expect(game.controller.hurry()).toBe(false);
    const play = await buy(game, makePlay({ stops: [5, 0, 2, 3] }));
    expect(game.controller.hurry()).toBe(false);
    game.controller.go(1);
    expect(game.controller.hurry()).toBe(true);
    await settle();
    expect(game.controller.round.wheels).toEqual(['standing', 'stopped', 'standing', 'standing']);
    game.controller.goAll();
    game.controller.hurry();
    await settle();
    expect(game.controller.round.phase).toBe('revealed');
    expect(game.table.cursors()).toEqual(play.wheels.map((w) => w.stop));
  });

  it('launches every standing wheel with the common GO, reported once', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({ stops: [5, 0, 2, 3] }));
    game.controller.goAll();
    expect(game.table.turning).toEqual([0, 1, 2, 3]);
    expect(game.audio.cues.filter((c) => c === 'spin')).toHaveLength(1);
    await game.table.land();
    expect(game.table.cursors()).toEqual([5, 0, 2, 3]);
    expect(game.api.callsOf('progress')).toEqual([['token-kept', play.playId, [true, true, true, true]]]);
    expect(game.controller.round.phase).toBe('revealed');
  });

  it('mixes two single GOs then the common one, which launches only the wheels still standing', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({ stops: [0, 1, 2, 3] }));
    game.controller.go(1);
    game.controller.go(3);
    expect(game.controls.controls?.canGo).toEqual([true, false, true, false]);
    await game.table.land(3);
    game.controller.goAll();
    expect(game.table.spins.map((s) => s.wheel)).toEqual([1, 3, 0, 2]);
    await game.table.land();
    expect(game.table.cursors()).toEqual([0, 1, 2, 3]);
    expect(game.api.callsOf('progress').map((c) => c.slice(1))).toEqual([
      [play.playId, [false, true, false, false]],
      [play.playId, [false, true, false, true]],
      [play.playId, [true, true, true, true]],
    ]);
    expect(game.controller.round.phase).toBe('revealed');
    // Nothing more to launch: GO pressed again does nothing.
    game.controller.go(0);
    game.controller.goAll();
    expect(game.table.spins).toHaveLength(4);
  });

  it('celebrates by the win level of the lot, glowing the wheels that won', async () => {
    const lose = setUp();
    await buy(lose, makePlay({ points: 0 }));
    lose.controller.goAll();
    await lose.table.land();
    expect(lose.table.celebrations.map((c) => c.level.rank)).toEqual([0]);
    expect(lose.audio.cues.at(-1)).toBe('lose');

    const bells = setUp();
    const won = await buy(bells, makePlay({ bells: 4, points: 0 }));
    expect(won.winCents).toBeGreaterThanOrEqual(1000 * won.stakeCents);
    bells.controller.goAll();
    await bells.table.land();
    expect(bells.table.celebrations.map((c) => [c.level.rank, c.glowing])).toEqual([[3, [true, true, true, true]]]);
    expect(bells.audio.cues).toContain('win-mega');
    expect(bells.controls.announced.at(-1)).toMatch(/^Gain total/);
  });
});

describe('GameController resumed round', () => {
  it('shows the wheels already launched stopped on their result, and lets the others go', async () => {
    const game = setUp();
    const unfinished = makePlay({ playId: 'left', stops: [3, 1, 4, 0], launched: [true, false, true, false] });
    game.api.accountNow = makeAccount({ unfinishedPlay: unfinished });
    await game.controller.start();
    expect(game.controller.round.phase).toBe('spinning');
    expect(game.controller.round.wheels).toEqual(['stopped', 'standing', 'stopped', 'standing']);
    expect([game.table.cursors()[0], game.table.cursors()[2]]).toEqual([3, 4]);
    expect(game.controls.announced).toContain(fr.resumeNotice);
    expect(game.controls.controls?.canGo).toEqual([false, true, false, true]);
    expect(game.controls.balance).toBe(unfinished.balanceBeforeCents - unfinished.stakeCents);

    game.controller.goAll();
    expect(game.table.turning).toEqual([1, 3]);
    await game.table.land();
    expect(game.table.cursors()).toEqual([3, 1, 4, 0]);
    await game.controller.reportsSent();
    expect(game.api.callsOf('progress')).toEqual([['token-kept', 'left', [true, true, true, true]]]);
    expect(game.api.callsOf('finish')).toEqual([['token-kept', 'left']]);
  });

  it('reveals at once a round whose wheels all stopped, and finishes it', async () => {
    const game = setUp();
    const unfinished = makePlay({ playId: 'seen', launched: [true, true, true, true] });
    game.api.accountNow = makeAccount({ unfinishedPlay: unfinished });
    await game.controller.start();
    expect(game.controller.round.phase).toBe('revealed');
    expect(game.table.spins).toEqual([]);
    await game.controller.reportsSent();
    expect(game.api.callsOf('finish')).toEqual([['token-kept', 'seen']]);
    game.clock.runLater();
    expect(game.controls.results).toEqual([{ playId: 'seen' }]);
    expect(game.controls.balance).toBe(unfinished.balanceAfterCents);
  });
});

describe('GameController balance', () => {
  it('offers only the stakes the balance pays, and the deposit page when it pays none', async () => {
    const deposits: unknown[] = [];
    const game = setUp({ storage: { ...STORED, 'spincake.stake': '500' }, onDeposit: (r) => deposits.push(r) });
    game.api.accountNow = makeAccount({ balanceCents: 350 });
    await game.controller.start();
    expect(game.controls.stakes).toMatchObject({ selected: 300, maxCents: 350 });
    expect(game.controls.controls?.canPlay).toBe(true);
    expect(game.controls.deposit).toBe(false);
    game.controller.deposit();
    expect(deposits).toEqual([]);

    game.api.accountNow = makeAccount({ balanceCents: 40 });
    game.controller.refresh();
    await settle();
    expect(game.controls.message).toBe(fr.balanceTooLow('0,40\u00a0€', '1\u00a0€'));
    expect(game.controls.controls?.canPlay).toBe(false);
    expect(game.controls.deposit).toBe(true);
    game.controller.deposit();
    expect(deposits).toEqual([{ balanceCents: 40, minStakeCents: 100 }]);

    // Money back: the stake the player chose, remembered, comes back.
    game.api.accountNow = makeAccount({ balanceCents: 10_000 });
    game.controller.refresh();
    await settle();
    expect(game.controls.stakes?.selected).toBe(500);
    expect(game.controls.message).toBeNull();
    expect(game.controls.deposit).toBe(false);
  });
});

describe('GameController « Recharger la démo »', () => {
  it('offers a demo player at 0 € the reload, sends one id until answered, and plays again', async () => {
    const game = setUp();
    game.api.accountNow = makeAccount({ balanceCents: 0, demo: true });
    await game.controller.start();
    expect(game.controls.controls?.canPlay).toBe(false);
    expect(game.controls.demoReload).toBe('offered');

    game.api.script.reloadDemo.push(NETWORK_DOWN);
    await game.controller.reloadDemo();
    expect(game.controls.message).toBe(fr.errors.network);
    expect(game.controls.demoReload).toBe('offered');
    await game.controller.reloadDemo();
    const ids = game.api.callsOf('reloadDemo').map((args) => args[1]);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(game.controls.balance).toBe(10_000);
    expect(game.controls.message).toBe(fr.demoReloaded('100\u00a0€'));
    expect(game.controls.demoReload).toBe('none');
    expect(game.controls.controls?.canPlay).toBe(true);

    // A second reload is a new request.
    game.api.accountNow = makeAccount({ balanceCents: 0, demo: true });
    game.controller.refresh();
    await settle();
    await game.controller.reloadDemo();
    expect(game.api.callsOf('reloadDemo')[2]?.[1]).not.toBe(ids[0]);
  });

  it('never offers it for real money, nor while the balance pays a stake', async () => {
    const portal = setUp();
    portal.api.accountNow = makeAccount({ balanceCents: 0, demo: false });
    await portal.controller.start();
    expect(portal.controls.demoReload).toBe('none');
    await portal.controller.reloadDemo();
    expect(portal.api.callsOf('reloadDemo')).toEqual([]);

    const demo = setUp();
    demo.api.accountNow = makeAccount({ balanceCents: 100, demo: true });
    await demo.controller.start();
    expect(demo.controls.demoReload).toBe('none');
    await demo.controller.reloadDemo();
    expect(demo.api.callsOf('reloadDemo')).toEqual([]);
  });
});

describe('GameController with the graphics context lost', () => {
  it('shows the result card only once the table is drawn again', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({}));
    game.controller.goAll();
    game.table.lost = true;
    await game.table.land();
    expect(game.controller.round.phase).toBe('revealed');
    game.clock.runLater();
    expect(game.controls.results).toEqual([]);
    game.table.restore();
    expect(game.controls.results).toEqual([{ playId: play.playId }]);
  });
});

describe('GameController after an offline round and a reload', () => {
  it('shows the result of the wheels this page launched though the server never heard of them, said as resumed', async () => {
    const first = setUp({ storage: { ...STORED } });
    const play = await buy(first, makePlay({ stops: [2, 0, 5, 1] }));
    first.api.script.progress.push(NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN);
    first.api.script.finish.push(NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN);
    first.controller.goAll();
    await first.table.land();
    await first.controller.reportsSent();

    // The server still has the play unlaunched: the page's memory says the player saw it all.
    const again = setUp({ storage: Object.fromEntries(first.storage.map) });
    again.api.accountNow = makeAccount({ unfinishedPlay: { ...play, launched: [false, false, false, false] } });
    await again.controller.start();
    expect(again.controller.round.phase).toBe('revealed');
    expect(again.table.spins).toEqual([]);
    expect(again.table.cursors()).toEqual([2, 0, 5, 1]);
    again.clock.runLater();
    expect(again.controls.results).toEqual([{ playId: play.playId, resumed: true }]);
    await again.controller.reportsSent();
    expect(again.api.calls.filter((c) => c.name === 'progress' || c.name === 'finish')).toEqual([
      { name: 'progress', args: ['token-kept', play.playId, [true, true, true, true]] },
      { name: 'finish', args: ['token-kept', play.playId] },
    ]);
  });

  it('says on the table that a round left standing was resumed', async () => {
    const game = setUp();
    game.api.accountNow = makeAccount({ unfinishedPlay: makePlay({ playId: 'left' }) });
    await game.controller.start();
    expect(game.controller.round.phase).toBe('ready');
    expect(game.controls.message).toBe(fr.resumeNotice);
  });
});

describe('GameController after a reload', () => {
  it('keeps the stake picked, and shows the last result again when the server has it as the last play', async () => {
    const first = setUp({ storage: { ...STORED } });
    await first.controller.start();
    first.controller.selectStake(300);
    first.api.nextPlay = makePlay({ stakeCents: 300, bells: 2, points: 150 });
    await first.controller.play();
    first.controller.goAll();
    await first.table.land();
    first.clock.runLater();
    const play = first.controller.round.play!;

    // The page reloads with the card up: same storage, the server's history says the same.
    const again = setUp({ storage: Object.fromEntries(first.storage.map) });
    again.api.script.plays.push({
      ok: true,
      data: { plays: [{ ...play, finished: true, launched: [true, true, true, true] }], nextBefore: null },
    });
    await again.controller.start();
    expect(again.controller.round.phase).toBe('revealed');
    again.clock.runLater();
    expect(again.controls.results).toEqual([{ playId: play.playId }]);
    expect(again.controls.announced).toContain(fr.lastResultNotice);
    expect(again.table.cursors()).toEqual(play.wheels.map((w) => w.stop));
    again.controller.closeResult();
    expect(again.controls.stakes?.selected).toBe(300);

    // Closed, then reloaded: an idle table at the stake picked.
    const third = setUp({ storage: Object.fromEntries(again.storage.map) });
    await third.controller.start();
    expect(third.controller.round.phase).toBe('idle');
    expect(third.api.callsOf('plays')).toEqual([]);
    expect(third.controls.stakes?.selected).toBe(300);
  });

  it('forgets a result the server’s history no longer has as the last play', async () => {
    const game = setUp({ storage: { ...STORED, 'spincake.resultShown': 'play-old' } });
    game.api.script.plays.push({ ok: true, data: { plays: [makePlay({ playId: 'play-new' })], nextBefore: null } });
    await game.controller.start();
    expect(game.controller.round.phase).toBe('idle');
    expect(game.controls.results).toEqual([]);
    expect(game.storage.map.has('spincake.resultShown')).toBe(false);
  });
});

describe('GameController replay', () => {
  it('plays a past play on the wheels, buys and reports nothing, then puts the table back', async () => {
    const game = setUp();
    const current = await buy(game, makePlay({ stops: [1, 1, 1, 1] }));
    game.controller.goAll();
    await game.table.land();
    game.api.accountNow = makeAccount({ balanceCents: current.balanceAfterCents });
    game.controller.closeResult();
    await settle();
    const anglesBefore = [...game.table.rotations];
    const callsBefore = game.api.calls.length;

    const past = makePlay({ playId: 'past', stops: [4, 3, 2, 5], balanceBeforeCents: 500 });
    expect(game.controller.replay(past)).toBe(true);
    expect(game.controller.round.phase).toBe('replay');
    expect(game.table.shown).toBe(past.wheels);
    expect(game.controls.announced.at(-1)).toMatch(/^Rediffusion de la partie du 14\/03\/2026/);
    expect(game.table.turning).toEqual([0, 1, 2, 3]);
    await game.table.land();
    expect(game.table.cursors()).toEqual([4, 3, 2, 5]);
    game.clock.runLater();
    expect(game.controls.results.at(-1)).toEqual({ playId: 'past', replayOf: expect.stringMatching(/^14\/03\/2026/) });
    // Today's balance stays; nothing bought, reported or finished.
    expect(game.controls.balance).toBe(current.balanceAfterCents);
    expect(game.api.calls.length).toBe(callsBefore);

    game.controller.closeResult();
    expect(game.controller.round.phase).toBe('idle');
    expect(game.table.shown).toBe(current.wheels);
    expect(game.table.cursors()).toEqual([1, 1, 1, 1]);
    game.table.rotations.forEach((deg, i) => {
      expect(restingPlace(deg).offset).toBeCloseTo(restingPlace(anglesBefore[i]!).offset, 9);
    });
    expect(game.api.calls.length).toBe(callsBefore);
  });

  it('plays a replay in silence and says on the table that it is one', async () => {
    const game = setUp();
    await game.controller.start();
    const cuesBefore = game.audio.cues.length;
    const past = makePlay({ playId: 'past', bells: 4, points: 0 });
    expect(game.controller.replay(past)).toBe(true);
    expect(game.controls.message).toMatch(/^Rediffusion/);
    await game.table.land();
    game.clock.runLater();
    expect(game.table.celebrations).toHaveLength(1);
    expect(game.audio.cues.slice(cuesBefore)).toEqual([]);
    game.controller.closeResult();
    expect(game.controls.message ?? '').not.toMatch(/^Rediffusion/);
  });

  it('refuses a replay over a live round', async () => {
    const game = setUp();
    await buy(game, makePlay({}));
    expect(game.controller.replay(makePlay({ playId: 'past' }))).toBe(false);
    expect(game.controller.round.phase).toBe('ready');
    expect(game.table.spins).toEqual([]);
  });
});

describe('GameController stake remembered', () => {
  it('says when a remembered stake is more than the balance pays: « Mise ajustée à 3 € »', async () => {
    const game = setUp({ storage: { ...STORED, 'spincake.stake': '500' } });
    game.api.accountNow = makeAccount({ balanceCents: 350 });
    await game.controller.start();
    expect(game.controls.stakes?.selected).toBe(300);
    expect(game.controls.message).toBe(fr.stakeAdjusted('3\u00a0€'));
  });

  it('says nothing when the remembered stake is paid', async () => {
    const game = setUp({ storage: { ...STORED, 'spincake.stake': '500' } });
    await game.controller.start();
    expect(game.controls.stakes?.selected).toBe(500);
    expect(game.controls.message).toBeNull();
  });
});

describe('GameController network failures', () => {
  it('resends a « Jouer » whose answer never came with the same playId and stake', async () => {
    const game = setUp();
    await game.controller.start();
    game.controller.selectStake(200);
    game.api.script.play.push(NETWORK_DOWN);
    await game.controller.play();
    expect(game.controller.round.phase).toBe('idle');
    expect(game.controls.message).toBe(fr.purchasePending('2\u00a0€'));
    expect(game.controls.controls?.stakesEnabled).toBe(false);
    // The stake is held until that play is settled.
    game.controller.selectStake(500);
    expect(game.controls.stakes?.selected).toBe(200);

    await game.controller.play();
    const [first, second] = game.api.callsOf('play');
    expect(second).toEqual(first);
    expect(first).toEqual(['token-kept', 200, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(game.controller.round.phase).toBe('ready');
    expect(game.controller.round.play?.playId).toBe(first![2]);
    expect(game.controls.balance).toBe(10_000 - 200);
  });

  it('shows a purchase whose answer was lost as pending, and resends it by itself after a pause that grows', async () => {
    const game = setUp();
    await game.controller.start();
    game.controller.selectStake(200);
    game.api.script.play.push(NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN);
    await game.controller.play();
    // What the button will do, and the stake shown as held while the server has not answered.
    expect(game.controls.controls?.pendingStakeCents).toBe(200);
    expect(game.controls.balance).toBe(10_000 - 200);
    expect(game.controls.balancePending).toBe(true);
    expect(game.controls.message).toBe(fr.purchasePending('2\u00a0€'));
    expect(game.clock.retries.map((r) => r.ms)).toEqual([2_000]);
    game.clock.runRetries();
    await settle();
    game.clock.runRetries();
    await settle();
    expect(game.clock.retries.map((r) => r.ms)).toEqual([10_000]);
    game.clock.runRetries();
    await settle();
    const sent = game.api.callsOf('play');
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((c) => c[2])).size).toBe(1);
    expect(game.controller.round.phase).toBe('ready');
    expect(game.controls.controls?.pendingStakeCents).toBeNull();
    expect(game.controls.balancePending).toBe(false);
    expect(game.controls.message).toBeNull();
    expect(game.clock.retries).toEqual([]);
  });

  it('resends a pending purchase as soon as the network comes back, once', async () => {
    const game = setUp();
    await game.controller.start();
    game.api.script.play.push(NETWORK_DOWN);
    await game.controller.play();
    expect(game.controller.round.phase).toBe('idle');
    game.clock.goOnline();
    await settle();
    expect(game.controller.round.phase).toBe('ready');
    // The pause's resend, superseded by the one the network's return made, does nothing.
    game.clock.runRetries();
    game.clock.goOnline();
    await settle();
    expect(game.api.callsOf('play')).toHaveLength(2);
  });

  it('forgets a refused « Jouer »: the next press is a new play', async () => {
    const game = setUp();
    await game.controller.start();
    game.api.script.play.push(refusal('INSUFFICIENT_BALANCE'));
    await game.controller.play();
    expect(game.controls.message).toBe(fr.errors.INSUFFICIENT_BALANCE);
    await game.controller.play();
    const [first, second] = game.api.callsOf('play');
    expect(second![2]).not.toBe(first![2]);
  });

  it('reads the account again when the stake sold out', async () => {
    const game = setUp();
    await game.controller.start();
    game.api.script.play.push(refusal('SOLD_OUT'));
    game.api.accountNow = makeAccount({
      stakes: [{ stakeCents: 100, onSale: false }, ...makeAccount().stakes.slice(1)],
    });
    await game.controller.play();
    await settle();
    expect(game.api.callsOf('account')).toHaveLength(2);
    expect(game.controls.message).toBe(fr.errors.SOLD_OUT);
    expect(game.controls.controls?.canPlay).toBe(false);
  });

  it('retries progress and finish while the network fails, in order, with the same playId', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({}));
    game.api.script.progress.push(NETWORK_DOWN, NETWORK_DOWN);
    game.api.script.finish.push(NETWORK_DOWN);
    game.controller.goAll();
    await game.table.land();
    await game.controller.reportsSent();
    expect(game.api.calls.filter((c) => c.name === 'progress' || c.name === 'finish')).toEqual([
      { name: 'progress', args: ['token-kept', play.playId, [true, true, true, true]] },
      { name: 'progress', args: ['token-kept', play.playId, [true, true, true, true]] },
      { name: 'progress', args: ['token-kept', play.playId, [true, true, true, true]] },
      { name: 'finish', args: ['token-kept', play.playId] },
      { name: 'finish', args: ['token-kept', play.playId] },
    ]);
    expect(game.clock.waits).toEqual([500, 1_000, 500]);
  });

  it('gives a report up after four attempts, and never retries a refusal', async () => {
    const game = setUp();
    await buy(game, makePlay({}));
    game.api.script.progress.push(NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN, NETWORK_DOWN);
    game.api.script.finish.push(refusal('NOT_FOUND'));
    game.controller.goAll();
    await game.table.land();
    await game.controller.reportsSent();
    expect(game.api.callsOf('progress')).toHaveLength(4);
    expect(game.api.callsOf('finish')).toHaveLength(1);
    expect(game.clock.waits).toEqual([500, 1_000, 1_500, 2_000]);
  });
});

describe('GameController quick spin', () => {
  it('is off at first, and every spin then is the full show', async () => {
    const game = setUp();
    await buy(game, makePlay({}));
    expect(game.controls.quickSpin).toBe(false);
    game.controller.goAll();
    expect(game.table.spins.every((s) => spinLengthS(s.plan) > 4)).toBe(true);
  });

  it('turned on, is remembered, and makes every spin short on the same stops, the card sooner', async () => {
    const game = setUp();
    await game.controller.start();
    game.controller.toggleQuickSpin();
    expect(game.controls.quickSpin).toBe(true);
    expect(game.storage.map.get('spincake.quickSpin')).toBe('on');

    // A reload: a new controller on the same storage finds the setting on.
    const again = setUp({ storage: Object.fromEntries(game.storage.map) });
    const play = await buy(again, makePlay({ stops: [5, 0, 3, 1] }));
    expect(again.controls.quickSpin).toBe(true);
    again.controller.goAll();
    expect(again.table.spins).toHaveLength(4);
    expect(again.table.spins.every((s) => spinLengthS(s.plan) <= 1.1)).toBe(true);
    await again.table.land();
    expect(again.table.cursors()).toEqual([5, 0, 3, 1]);
    expect(again.clock.pending.map((p) => p.seconds)).toEqual([0.15]);
    again.clock.runLater();
    expect(again.controls.results).toEqual([{ playId: play.playId }]);
  });

  it('turned off again, spins are full again and the choice is kept', async () => {
    const game = setUp({ storage: { ...STORED, 'spincake.quickSpin': 'on' } });
    await buy(game, makePlay({}));
    game.controller.toggleQuickSpin();
    expect(game.controls.quickSpin).toBe(false);
    expect(game.storage.map.get('spincake.quickSpin')).toBe('off');
    game.controller.goAll();
    expect(game.table.spins.every((s) => spinLengthS(s.plan) > 4)).toBe(true);
  });

  it('a round with the common GO still takes three actions: « Jouer », GO, « Nouvelle partie »', async () => {
    const game = setUp({ storage: { ...STORED, 'spincake.quickSpin': 'on' } });
    await buy(game, makePlay({})); // 1: « Jouer »
    game.controller.goAll(); // 2: GO
    await game.table.land();
    game.clock.runLater();
    expect(game.controls.results).toHaveLength(1);
    game.controller.closeResult(); // 3: « Nouvelle partie »
    await settle();
    expect(game.controller.round.phase).toBe('idle');
    expect(game.controls.controls).toMatchObject({ canPlay: true });
  });
});

describe('GameController sound', () => {
  it('mutes and unmutes, telling the controls', async () => {
    const game = setUp();
    await game.controller.start();
    expect(game.controls.muted).toBe(false);
    game.controller.toggleMute();
    expect(game.audio.muted).toBe(true);
    expect(game.controls.muted).toBe(true);
  });
});

describe('GameController the show', () => {
  it('tallies the wheels live as they stop, then clears the tally with the card', async () => {
    const game = setUp();
    await buy(game, makePlay({ stops: [1, 2, 3, 4], bells: 2, points: 150 }));
    for (const wheel of [3, 0, 1, 2]) {
      game.controller.go(wheel);
      await game.table.land(wheel);
    }
    expect(game.controls.tallies.filter((t) => t !== null)).toEqual([
      fr.liveTally(0, 150),
      fr.liveTally(1, 300),
      fr.liveTally(2, 450),
      fr.liveTally(2, 600),
    ]);
    expect(fr.liveTally(2, 650)).toBe('2\u00a0cloches · 650\u00a0pts');
    game.clock.runLater();
    game.controller.closeResult();
    expect(game.controls.tallies.at(-1)).toBeNull();
  });

  it('never shows the credited balance before the card: it stays the balance after the stake until then', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({ bells: 3, points: 0 }));
    expect(play.winCents).toBeGreaterThan(0);
    game.controller.goAll();
    await game.table.land();
    expect(game.controller.round.phase).toBe('revealed');
    expect(game.controls.results).toEqual([]);
    expect(game.controls.balances).not.toContain(play.balanceAfterCents);
    game.clock.runLater();
    expect(game.controls.results).toEqual([{ playId: play.playId }]);
    expect(game.controls.balance).toBe(play.balanceAfterCents);
  });

  it('launches the wheels of a common GO one after the other, never in lockstep', async () => {
    const game = setUp();
    await buy(game, makePlay({}));
    game.controller.goAll();
    const delays = game.table.spins.map((s) => s.plan.delayS);
    expect(delays[0]).toBe(0);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
  });

  it('plays the spin bed for as long as the spins, cut short by a slam-stop, ended with the last stop', async () => {
    const game = setUp();
    await buy(game, makePlay({}));
    game.controller.goAll();
    const longest = Math.max(...game.table.spins.map((s) => spinLengthS(s.plan)));
    expect(game.audio.cues.filter((c) => c === 'spin')).toHaveLength(1);
    expect(game.audio.bedEnds.at(-1)).toBeGreaterThan(4);
    expect(game.audio.bedEnds.at(-1)).toBeLessThanOrEqual(longest + 0.05);
    game.controller.hurry();
    expect(game.audio.bedEnds.at(-1)).toBeCloseTo(0.2, 1);
    await settle();
    expect(game.audio.bedEnds.at(-1)).toBe(0);
  });

  it('gives the stake back quietly: the refund tier and its own soft cue, no sprinkles', async () => {
    const game = setUp();
    const play = await buy(game, makePlay({ bells: 1, points: 100 }));
    expect(play.winCents).toBe(play.stakeCents);
    game.controller.goAll();
    await game.table.land();
    const level = game.table.celebrations.at(-1)!.level;
    expect([level.tier, level.sprinkles, level.takeoverS]).toEqual(['refund', 0, 0]);
    expect(game.audio.cues).toContain('refund');
    expect(game.audio.cues).not.toContain('win-small');
  });

  it('fetches a big tier’s cue as soon as its round is bought', async () => {
    const game = setUp();
    await buy(game, makePlay({ bells: 4, points: 0 }));
    expect(game.audio.prepared).toContain('win-mega');
  });
});
