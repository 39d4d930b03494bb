import gsap from 'gsap';
import type { Play } from '../../contract/api.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import { winLevel } from '../game/winLevels.ts';
import type { Strings } from '../i18n/index.ts';
import { button, el } from './dom.ts';
import { Takeover } from './takeover.ts';

/**
 * The bar's balance as the card drives it: a play's credit shows with the card's total,
 * counting up with it, never before (ui/hud.ts keeps the figure).
 */
export interface CardBalance {
  /** The figure the bar shows now. */
  readonly shown: number | null;
  /** The bar counts to `target` by `tween`: a setBalance(target) meanwhile leaves it counting. */
  countTo(target: number, tween: gsap.core.Tween): void;
  /** One step of the count. */
  write(cents: number): void;
  /** The count is over: `cents`, exactly, if it was still the target. */
  end(cents: number): void;
  /** The card closed mid count-up: the credited balance at once. */
  finish(): void;
}

export interface ResultCardOptions {
  host: HTMLElement;
  strings: Strings;
  locale: Locale;
  balance: CardBalance;
  /** What stays unusable behind the card (it is modal). */
  behind: () => readonly HTMLElement[];
  /** Whether spins are quick: the card comes up at the same pace (its steps run faster). */
  quickSpin: () => boolean;
  closeResult(): void;
  replayAgain(): void;
}

/**
 * The result card, a modal dialog: JEU 1, JEU 2, the four segments under the cursors
 * (Article 4.5), then the single total, counting up, after a takeover for the big tiers.
 * Its keys (Escape, Tab kept inside) and its reveal timeline are its own; one module per
 * popup, as pixijs/open-games keeps them.
 */
export class ResultCard {
  /** Where the card goes; the HUD places it among its layers. */
  readonly layer: HTMLElement;
  private readonly takeover: Takeover;
  private revealTimeline: gsap.core.Timeline | null = null;

  constructor(private readonly options: ResultCardOptions) {
    this.layer = el('div', { className: 'result-layer', attrs: { hidden: '' } });
    this.takeover = new Takeover(options.host, options.strings);
    // On the document: a click on the dimmed table behind must not let the keys escape the card.
    document.addEventListener('keydown', (e) => this.open && !this.takeover.open && this.onKey(e));
  }

  /** Whether the card (or the takeover before it) is up: no panel may open over it. */
  get open(): boolean {
    return !this.layer.hidden || this.takeover.open;
  }

  /** The card's keys: Escape closes it, Tab and Shift+Tab go round its own controls. */
  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      this.options.closeResult();
      return;
    }
    if (e.key !== 'Tab') return;
    const focusable = [...this.layer.querySelectorAll<HTMLElement>('button:not(:disabled), [tabindex="0"]')];
    if (focusable.length === 0) return;
    const i = focusable.indexOf(document.activeElement as HTMLElement);
    if (i === -1) {
      e.preventDefault();
      focusable[e.shiftKey ? focusable.length - 1 : 0]!.focus();
      return;
    }
    const next = e.shiftKey ? (i <= 0 ? focusable.length - 1 : i - 1) : i === focusable.length - 1 ? 0 : i + 1;
    e.preventDefault();
    focusable[next]!.focus();
  }

  private inertBehind(inert: boolean): void {
    for (const behind of this.options.behind()) behind.inert = inert;
  }

  /**
   * Shows the card (after a takeover for the big tiers). « Voir les roues » folds it into a
   * strip at the bottom so the four stopped wheels show with the result. `replayOf` (the
   * play's date) labels it as a replay of a past play from the history.
   */
  show(play: Play, reducedMotion: boolean, replayOf?: string, resumed = false): void {
    const level = winLevel(play.winCents, play.stakeCents);
    const tier = level.tier;
    if (replayOf !== undefined || (tier !== 'big' && tier !== 'mega' && tier !== 'jackpot')) {
      this.showCard(play, reducedMotion, replayOf, resumed);
      return;
    }
    this.inertBehind(true);
    document.body.dataset.overlay = 'takeover';
    // The credit waits through the takeover too: the card counts it up (showCard).
    if (this.options.balance.shown === play.balanceBeforeCents - play.stakeCents) {
      this.options.balance.countTo(play.balanceAfterCents, gsap.to({}, { duration: 0, paused: true }));
    }
    this.takeover.show(
      {
        tier,
        winCents: play.winCents,
        money: (c) => formatCents(c, this.options.locale),
        holdS: level.takeoverS,
        countUpS: level.countUpS,
        reducedMotion,
        timeScale: this.options.quickSpin() ? 2 : 1,
      },
      () => this.showCard(play, reducedMotion, undefined, resumed),
    );
  }

  private showCard(play: Play, reducedMotion: boolean, replayOf?: string, resumed = false): void {
    const t = this.options.strings;
    const balance = this.options.balance;
    const level = winLevel(play.winCents, play.stakeCents);
    const money = (c: number) => formatCents(c, this.options.locale);
    const won = play.winCents > 0;
    const row = (name: string, detail: string, win: number, key: string) =>
      el('div', { className: `result-row ${win > 0 ? 'won' : ''}`, attrs: { 'data-game': key } }, [
        el('span', { className: 'result-game', text: name }),
        el('span', { className: 'result-detail', text: detail }),
        el('span', { className: 'result-win', text: win > 0 ? money(win) : t.noWin }),
      ]);
    const jeu1 = row(t.jeu1, t.bellsFound(play.jeu1.bells), play.jeu1.winCents, 'jeu1');
    const jeu2 = row(t.jeu2, t.pointsTotal(play.jeu2.points), play.jeu2.winCents, 'jeu2');
    const segments = el(
      'ul',
      { className: 'result-wheels', attrs: { 'aria-label': t.cursorsHeading } },
      play.wheels.map((w, i) => {
        const s = w.segments[w.stop]!;
        return el('li', { className: `result-wheel ${s.symbol === 'bell' ? 'bell' : ''}` }, [
          el('span', { className: 'result-wheel-name', text: t.wheelLabel(i + 1) }),
          el('span', { className: 'result-wheel-points', text: t.points(s.points) }),
          el('span', { className: 'result-wheel-symbol', text: t.symbols[s.symbol] }),
        ]);
      }),
    );
    const totalValue = el('span', { className: 'total-value', text: money(reducedMotion ? play.winCents : 0) });
    const total = won
      ? el('div', { className: 'result-total' }, [el('span', { className: 'total-label', text: t.total }), totalValue])
      : el('p', { className: 'result-lost', text: t.lostMessage });
    const again = button('play again', replayOf === undefined ? t.newRound : t.replayBack);
    again.addEventListener('click', () => this.options.closeResult());
    const peek = button('peek', t.seeWheels);
    peek.setAttribute('aria-pressed', 'false');
    const title = el('h2', {
      className: 'result-title',
      text: won ? (level.tier === 'refund' ? t.refundTitle : t.youWin) : t.lostTitle,
      attrs: { id: 'result-title' },
    });
    const card = el(
      'section',
      {
        className: `result-card ${won ? 'win' : 'lose'} tier-${level.tier}`,
        attrs: {
          role: 'dialog',
          'aria-modal': 'true',
          'aria-labelledby': 'result-title',
          'data-win-cents': String(play.winCents),
        },
      },
      [
        title,
        el('div', { className: 'result-games' }, [jeu1, jeu2]),
        segments,
        total,
        el('div', { className: 'result-actions' }, [
          peek,
          ...(replayOf === undefined ? [] : [this.replayAgainButton()]),
          again,
        ]),
      ],
    );
    peek.addEventListener('click', () => {
      const folded = !this.layer.classList.contains('folded');
      this.layer.classList.toggle('folded', folded);
      peek.textContent = folded ? t.seeResult : t.seeWheels;
      peek.setAttribute('aria-pressed', String(folded));
    });
    if (replayOf !== undefined) {
      const label = el('p', {
        className: 'result-replay',
        text: t.replayTitle(replayOf),
        attrs: { id: 'result-replay' },
      });
      card.prepend(label);
      card.dataset.replay = play.playId;
      card.setAttribute('aria-labelledby', 'result-replay result-title');
    }
    if (resumed) {
      card.prepend(el('p', { className: 'result-resumed', text: t.resumedTitle, attrs: { id: 'result-resumed' } }));
      card.setAttribute('aria-labelledby', 'result-resumed result-title');
    }
    this.layer.classList.remove('folded');
    this.layer.replaceChildren(card);
    this.layer.hidden = false;
    this.inertBehind(true);
    document.body.dataset.overlay = 'revealing';
    // Into the dialog at once: its button is the player's next action.
    again.focus({ preventScroll: true });

    this.revealTimeline?.kill();
    // The credit shows in the bar with the card's total, never before it (a replay's balance stays today's).
    const balanceFrom = play.balanceBeforeCents - play.stakeCents;
    const countsBalance = replayOf === undefined && play.winCents > 0 && balance.shown === balanceFrom;
    const tl = gsap.timeline({
      onComplete: () => {
        totalValue.textContent = money(play.winCents);
        if (countsBalance) balance.end(play.balanceAfterCents);
        document.body.dataset.overlay = 'shown';
      },
    });
    // The bar's balance climbs with the total (from where the total starts to show).
    const shown = { cents: balanceFrom };
    const balanceTween = gsap.to(shown, {
      cents: play.balanceAfterCents,
      duration: Math.max(0.3, level.countUpS),
      ease: 'power2.out',
      paused: !countsBalance,
      onUpdate: () => balance.write(Math.round(shown.cents)),
      onComplete: () => balance.end(play.balanceAfterCents),
    });
    if (countsBalance) balance.countTo(play.balanceAfterCents, balanceTween);
    if (!reducedMotion) {
      tl.from(card, { scale: 0.85, opacity: 0, duration: 0.35, ease: 'back.out(1.6)' })
        .from(jeu1, { opacity: 0, x: -16, duration: 0.3 }, '+=0.1')
        .from(jeu2, { opacity: 0, x: -16, duration: 0.3 }, '+=0.25')
        .from(segments, { opacity: 0, y: 8, duration: 0.3 }, '+=0.1')
        .from(total, { opacity: 0, y: 10, duration: 0.3 }, '+=0.25');
      if (won && level.countUpS > 0) {
        const counter = { cents: 0 };
        tl.to(counter, {
          cents: play.winCents,
          duration: level.countUpS,
          ease: 'power2.out',
          // Whole cents on the way up, the server's exact figure at the end.
          onUpdate: () => (totalValue.textContent = money(Math.round(counter.cents))),
        });
      } else if (won) {
        // The stake back: said at once, no count-up (nothing to celebrate).
        tl.call(() => void (totalValue.textContent = money(play.winCents)), [], '<');
      }
      if (countsBalance) tl.add(balanceTween.play(), '<');
    } else balanceTween.kill();
    // The same steps, three times faster: the player asked to go fast.
    if (this.options.quickSpin()) tl.timeScale(3);
    this.revealTimeline = tl;
  }

  private replayAgainButton(): HTMLButtonElement {
    const b = button('peek replay-again', this.options.strings.replayAgain);
    b.addEventListener('click', () => this.options.replayAgain());
    return b;
  }

  /** Takes the card (or the takeover) down; whether the keyboard focus was in it. */
  hide(): boolean {
    this.revealTimeline?.kill();
    this.revealTimeline = null;
    document.body.dataset.overlay = 'hidden';
    this.takeover.dismiss();
    this.options.balance.finish();
    const hadFocus = this.layer.contains(document.activeElement);
    this.layer.hidden = true;
    this.layer.replaceChildren();
    this.inertBehind(false);
    document.body.dataset.overlay = 'hidden';
    return hadFocus;
  }
}
