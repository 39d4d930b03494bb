import { describe, expect, it } from 'vitest';
import { evaluate } from '../../rules/index.ts';
import type { BuyRequest, BuyResult, PlayRecord, Store } from '../store/types.ts';
import { withFixtures, type Fixtures } from './fixtures.ts';

/** A store whose buyPlay answers what the test says, and records what it was asked. */
function fakeStore(answers: BuyResult[]) {
  const requests: BuyRequest[] = [];
  const store = {
    name: 'fake',
    async buyPlay(request: BuyRequest): Promise<BuyResult> {
      requests.push(request);
      return answers.shift()!;
    },
    async getPlayer(this: { name: string }, playerId: string) {
      return { id: `${this.name}:${playerId}`, kind: 'demo' as const, balanceCents: 0 };
    },
  };
  return { store: store as unknown as Store, requests };
}

const request = (playId: string): BuyRequest => ({
  playerId: 'p',
  playId,
  stakeCents: 200,
  pool: 'demo',
  salesOpen: true,
  now: new Date(0),
});
const sold = (replayed: boolean): BuyResult => ({ ok: true, play: {} as PlayRecord, balanceCents: 0, replayed });

describe('withFixtures', () => {
  it('sells the pending fixture once, laid out from the playId, then the block again', async () => {
    const { store, requests } = fakeStore([sold(false), sold(false)]);
    const fixtures: Fixtures = new Map([['p', { pair: 'x20000' }]]);
    const wrapped = withFixtures(store, fixtures);
    await wrapped.buyPlay(request('a'));
    await wrapped.buyPlay(request('b'));
    expect(requests[0]!.fixtureUnit).toBeDefined();
    expect(evaluate(requests[0]!.fixtureUnit!).winCents).toBe(2 * 2_000_000);
    expect(requests[1]!.fixtureUnit).toBeUndefined();
    expect(fixtures.size).toBe(0);
  });

  it('gives the fixture back when the play is refused or replayed, unless a new one was set', async () => {
    const { store } = fakeStore([{ ok: false, code: 'INSUFFICIENT_BALANCE' }, sold(true), sold(false)]);
    const fixtures: Fixtures = new Map([['p', { pair: 'x7', seed: 's' }]]);
    const wrapped = withFixtures(store, fixtures);
    await wrapped.buyPlay(request('a'));
    expect(fixtures.get('p')).toEqual({ pair: 'x7', seed: 's' });
    await wrapped.buyPlay(request('b'));
    expect(fixtures.get('p')).toEqual({ pair: 'x7', seed: 's' });
    await wrapped.buyPlay(request('c'));
    expect(fixtures.has('p')).toBe(false);
  });

  it('lays out the same unit for the same seed', async () => {
    const { store, requests } = fakeStore([sold(false), sold(false)]);
    const fixtures: Fixtures = new Map();
    const wrapped = withFixtures(store, fixtures);
    fixtures.set('p', { pair: 'x7', seed: 'visual' });
    await wrapped.buyPlay(request('a'));
    fixtures.set('p', { pair: 'x7', seed: 'visual' });
    await wrapped.buyPlay(request('b'));
    expect(requests[1]!.fixtureUnit).toEqual(requests[0]!.fixtureUnit);
  });

  it('leaves every other method to the store, called on the store itself', async () => {
    const { store } = fakeStore([]);
    const wrapped = withFixtures(store, new Map());
    expect((await wrapped.getPlayer('p'))?.id).toBe('fake:p');
  });
});
