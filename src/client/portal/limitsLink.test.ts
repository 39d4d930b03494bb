import { describe, expect, it } from 'vitest';
import { limitsLinkOnPortal } from './limitsLink.ts';

describe('the limits link', () => {
  const portals = ['https://portal.example', 'https://www.fdj.fr'];

  it('is kept only on a portal origin', () => {
    expect(limitsLinkOnPortal('https://portal.example/limites', portals)).toBe('https://portal.example/limites');
    expect(limitsLinkOnPortal('https://www.fdj.fr/jeu-responsable?x=1', portals)).toBe(
      'https://www.fdj.fr/jeu-responsable?x=1',
    );
    expect(limitsLinkOnPortal('https://evil.example/limites', portals)).toBeNull();
    expect(limitsLinkOnPortal('http://portal.example/limites', portals)).toBeNull();
    expect(limitsLinkOnPortal('https://portal.example.evil.example/', portals)).toBeNull();
    expect(limitsLinkOnPortal('https://portal.example/limites', [])).toBeNull();
    expect(limitsLinkOnPortal(null, portals)).toBeNull();
  });
});
