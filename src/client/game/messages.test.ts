import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.ts';
import { fr } from '../i18n/fr.ts';
import { NETWORK_DOWN, refusal } from './fakes.ts';
import { ALL_ON_SALE, failureMessage, isOnSale, offerMessage, type SaleStatus } from './messages.ts';

const soldOut200: SaleStatus = {
  ...ALL_ON_SALE,
  offers: ALL_ON_SALE.offers.map((o) => ({ ...o, onSale: o.stakeCents !== 200 })),
};

describe('offerMessage', () => {
  it('is silent when the stake can be bought', () => {
    expect(offerMessage(ALL_ON_SALE, 100, fr)).toBeNull();
    expect(isOnSale(ALL_ON_SALE, 100)).toBe(true);
  });

  it('says a stake is sold out, and only that stake', () => {
    expect(offerMessage(soldOut200, 200, fr)).toBe(fr.errors.SOLD_OUT);
    expect(isOnSale(soldOut200, 200)).toBe(false);
    expect(offerMessage(soldOut200, 100, fr)).toBeNull();
  });

  it('gives the operator’s word when sales are closed, or the standard one', () => {
    expect(offerMessage({ ...ALL_ON_SALE, open: false, message: 'Reprise à 8 h' }, 100, fr)).toBe('Reprise à 8 h');
    expect(offerMessage({ ...ALL_ON_SALE, open: false }, 100, en)).toBe(en.errors.SALES_CLOSED);
    expect(isOnSale({ ...ALL_ON_SALE, open: false }, 100)).toBe(false);
  });
});

describe('failureMessage', () => {
  it('words the network, the server’s code, and its closed-sales message', () => {
    expect(failureMessage(NETWORK_DOWN, fr)).toBe(fr.errors.network);
    expect(failureMessage(refusal('INSUFFICIENT_BALANCE', 'low'), fr)).toBe(fr.errors.INSUFFICIENT_BALANCE);
    expect(failureMessage(refusal('SALES_CLOSED', 'Fermé ce soir'), fr)).toBe('Fermé ce soir');
    expect(failureMessage(refusal('SALES_CLOSED'), fr)).toBe(fr.errors.SALES_CLOSED);
  });

  it('words each refusal of the operator’s wallet in the player’s language, never the server’s English', () => {
    expect(failureMessage(refusal('LIMIT_REACHED', 'a play limit of your operator account is reached'), fr)).toMatch(
      /^Limite de jeu atteinte/,
    );
    expect(failureMessage(refusal('PLAYER_BLOCKED', 'blocked'), fr)).toMatch(/^Compte bloqué/);
    expect(failureMessage(refusal('WALLET_UNAVAILABLE', 'no answer'), fr)).toMatch(/indisponible — réessayez/);
    expect(failureMessage(refusal('WALLET_UNAVAILABLE', 'no answer'), en)).toMatch(/unavailable — try again/);
    expect(failureMessage(refusal('LIMIT_REACHED'), en)).toMatch(/^Play limit reached/);
    expect(failureMessage(refusal('PLAYER_BLOCKED'), en)).toMatch(/^Account blocked/);
  });
});
