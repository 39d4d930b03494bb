import gsap from 'gsap';
import type { Strings } from '../i18n/index.ts';
import { button, el } from './dom.ts';

export type TakeoverTier = 'big' | 'mega' | 'jackpot';

export interface TakeoverShow {
  tier: TakeoverTier;
  winCents: number;
  money: (cents: number) => string;
  /** How long it holds the screen, and how long its amount counts up, at the normal pace. */
  holdS: number;
  countUpS: number;
  reducedMotion: boolean;
  /** Faster than normal (quick spins: the player asked to go fast). */
  timeScale: number;
}

/**
 * A big, mega or jackpot lot takes the screen before the card: rays, the tier's headline
 * and the lot counting up, longer for each tier. Everything runs on GSAP's clock (the test
 * clock drives it). A tap, a click or a key ends it at once: never longer than the player wants.
 */
export class Takeover {
  private layer: HTMLButtonElement | null = null;
  private timeline: gsap.core.Timeline | null = null;
  private finish: (() => void) | null = null;

  constructor(
    private readonly host: HTMLElement,
    private readonly strings: Strings,
  ) {}

  get open(): boolean {
    return this.layer !== null;
  }

  /**
   * Shows it; `onEnd` runs once it is gone (its time up, or skipped), at once in the same
   * frame (not a promise's later turn: the test clock moves through the card after it too).
   */
  show(s: TakeoverShow, onEnd: () => void): void {
    this.close();
    const amount = el('span', { className: 'takeover-amount', text: s.money(s.reducedMotion ? s.winCents : 0) });
    const title = el('span', { className: 'takeover-title', text: this.strings.takeoverTitle[s.tier] });
    const rays = el('span', { className: 'takeover-rays', attrs: { 'aria-hidden': 'true' } });
    const hint = el('span', { className: 'takeover-skip', text: this.strings.takeoverSkip });
    // The whole screen is the button: any tap ends it, and so do Enter and Space on its focus.
    const layer = button(`takeover takeover-${s.tier}`, '');
    layer.dataset.tier = s.tier;
    layer.setAttribute('aria-label', `${this.strings.takeoverTitle[s.tier]} ${s.money(s.winCents)}`);
    layer.append(rays, el('span', { className: 'takeover-body' }, [title, amount]), hint);
    this.layer = layer;
    this.host.append(layer);
    layer.focus({ preventScroll: true });

    this.finish = onEnd;
    layer.addEventListener('click', () => this.close());
    layer.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.close();
    });
    const tl = gsap.timeline({ onComplete: () => this.close() });
    if (s.reducedMotion) {
      tl.to({}, { duration: s.holdS / 2 });
    } else {
      const counter = { cents: 0 };
      const turns = s.tier === 'jackpot' ? 0.5 : s.tier === 'mega' ? 0.35 : 0.25;
      tl.from(layer, { opacity: 0, duration: 0.25 })
        .to(rays, { rotation: 360 * turns, duration: s.holdS, ease: 'none' }, 0)
        .from(title, { scale: 0.3, opacity: 0, duration: 0.5, ease: 'back.out(2.2)' }, 0.1)
        .to(
          counter,
          {
            cents: s.winCents,
            duration: s.countUpS,
            ease: 'power2.out',
            onUpdate: () => (amount.textContent = s.money(Math.round(counter.cents))),
            onComplete: () => (amount.textContent = s.money(s.winCents)),
          },
          0.35,
        )
        .fromTo(
          amount,
          { scale: 1 },
          { scale: s.tier === 'big' ? 1.08 : 1.14, duration: 0.22, yoyo: true, repeat: 1, ease: 'sine.out' },
          0.35 + s.countUpS,
        )
        .to(layer, { opacity: 0, duration: 0.3 }, s.holdS - 0.3);
    }
    tl.timeScale(s.timeScale);
    this.timeline = tl;
  }

  /** Ends it now (a tap, a key); `onEnd` runs. */
  close(): void {
    this.timeline?.kill();
    this.timeline = null;
    this.layer?.remove();
    this.layer = null;
    const finish = this.finish;
    this.finish = null;
    finish?.();
  }

  /** Takes it away without running `onEnd` (the round is over: no card follows). */
  dismiss(): void {
    this.finish = null;
    this.close();
  }
}
