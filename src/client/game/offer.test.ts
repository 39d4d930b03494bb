import { describe, expect, it } from 'vitest';
import { fr } from '../i18n/fr.ts';
import { ALL_ON_SALE, type SaleStatus } from './messages.ts';
import { balanceTooLow, canAfford, fittedStake, playableStakes, salesWindowLine, tableMessage } from './offer.ts';

const soldOut2: SaleStatus = {
  ...ALL_ON_SALE,
  offers: ALL_ON_SALE.offers.map((o) => (o.stakeCents === 200 ? { ...o, onSale: false } : o)),
};
const closed = (opensAt: string | null, closesAt: string | null, message = ''): SaleStatus => ({
  ...ALL_ON_SALE,
  open: false,
  message,
  opensAt,
  closesAt,
});
const NOW = new Date('2026-06-21T16:30:00Z');

describe('offer', () => {
  it('pays a stake only from a balance that covers it', () => {
    expect(canAfford(300, 300)).toBe(true);
    expect(canAfford(300, 299)).toBe(false);
    expect(canAfford(500, null)).toBe(true);
    expect(playableStakes(ALL_ON_SALE, 250)).toEqual([100, 200]);
    expect(playableStakes(soldOut2, 250)).toEqual([100]);
  });

  it('keeps the chosen stake when the balance pays it, else the biggest it pays', () => {
    expect(fittedStake(300, ALL_ON_SALE, 1_000)).toBe(300);
    expect(fittedStake(500, ALL_ON_SALE, 350)).toBe(300);
    expect(fittedStake(500, soldOut2, 250)).toBe(100);
    expect(fittedStake(500, ALL_ON_SALE, 50)).toBe(500);
  });

  it('says the balance is too low only when no stake on sale can be paid', () => {
    expect(balanceTooLow(ALL_ON_SALE, 99)).toBe(true);
    expect(balanceTooLow(ALL_ON_SALE, 100)).toBe(false);
    expect(balanceTooLow(ALL_ON_SALE, null)).toBe(false);
    expect(balanceTooLow(closed(null, null), 0)).toBe(false);
    expect(tableMessage(ALL_ON_SALE, 100, 0, NOW, fr, 'fr')).toBe(fr.balanceTooLow('0\u00a0€', '1\u00a0€'));
    expect(tableMessage(ALL_ON_SALE, 100, 40, NOW, fr, 'fr')).toBe(
      'Votre solde (0,40\u00a0€) est insuffisant pour jouer\u202f: la plus petite mise est de 1\u00a0€.',
    );
    expect(tableMessage(soldOut2, 200, 1_000, NOW, fr, 'fr')).toBe(fr.errors.SOLD_OUT);
    expect(tableMessage(ALL_ON_SALE, 200, 1_000, NOW, fr, 'fr')).toBeNull();
  });

  it('gives the dates of closed sales, in French time', () => {
    expect(salesWindowLine(closed('2026-07-01T06:00:00Z', null), NOW, fr, 'fr')).toBe(
      'Ouverture des ventes le 1 juillet 2026 à 08:00.',
    );
    expect(salesWindowLine(closed('2026-01-01T00:00:00Z', '2026-06-01T21:59:00Z'), NOW, fr, 'fr')).toBe(
      'Les ventes ont fermé le 1 juin 2026 à 23:59.',
    );
    expect(salesWindowLine(closed('2026-01-01T00:00:00Z', '2026-12-31T22:59:00Z'), NOW, fr, 'fr')).toBe(
      'Ventes ouvertes du 1 janvier 2026 à 01:00 au 31 décembre 2026 à 23:59.',
    );
    expect(salesWindowLine(closed(null, null), NOW, fr, 'fr')).toBeNull();
    expect(salesWindowLine({ ...ALL_ON_SALE, opensAt: '2026-01-01T00:00:00Z' }, NOW, fr, 'fr')).toBeNull();
    expect(tableMessage(closed('2026-07-01T06:00:00Z', null, 'Maintenance.'), 100, 1_000, NOW, fr, 'fr')).toBe(
      'Maintenance. Ouverture des ventes le 1 juillet 2026 à 08:00.',
    );
    expect(tableMessage(closed(null, null), 100, 1_000, NOW, fr, 'fr')).toBe(fr.errors.SALES_CLOSED);
  });
});
