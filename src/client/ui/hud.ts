import gsap from 'gsap';
import type { Play, StakeOffer } from '../../contract/api.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import type { StakeCents } from '../../rules/stakes.ts';
import type { ControlsState, ControlsView, DemoReloadOffer, FocusTarget } from '../game/views.ts';
import { winLevel } from '../game/winLevels.ts';
import type { Strings } from '../i18n/index.ts';
import { typeset } from '../i18n/typography.ts';
import { button, el, icon, ICONS } from './dom.ts';
import type { Layout } from './layout.ts';
import { Takeover } from './takeover.ts';

export interface HudHandlers {
  play(): void;
  go(wheel: number): void;
  goAll(): void;
  stake(stakeCents: StakeCents): void;
  toggleMute(): void;
  toggleQuickSpin(): void;
  history(): void;
  rules(): void;
  closeResult(): void;
  /** A replay's card: the same past play on the wheels once more. */
  replayAgain(): void;
  /** The portal's deposit page (portal mode only; absent otherwise). */
  deposit?: () => void;
  /** « Recharger la démo » (offered to a demo player only, by the controller). */
  reloadDemo(): void;
}

/**
 * The DOM layer over the canvas: every control is a real <button> with a French
 * accessible name, positioned from the same layout as the wheels; plus the result
 * card, the message line and a polite live region.
 */
export class Hud implements ControlsView {
  readonly root: HTMLElement;
  readonly canvasHost: HTMLElement;
  private readonly goButtons: HTMLButtonElement[];
  private readonly goAllButton: HTMLButtonElement;
  private readonly playButton: HTMLButtonElement;
  private readonly stakeButtons = new Map<StakeCents, HTMLButtonElement>();
  private readonly stakeRow: HTMLElement;
  private readonly balanceValue: HTMLElement;
  private readonly balancePending: HTMLElement;
  private readonly muteButton: HTMLButtonElement;
  private readonly quickSpinSwitch: HTMLButtonElement;
  /** Quick spins: the card comes up at the same pace (its steps run faster). */
  private quickSpin = false;
  private readonly message: HTMLElement;
  private readonly messageText: HTMLElement;
  private readonly depositButton: HTMLButtonElement;
  private readonly reloadDemoButton: HTMLButtonElement;
  private maxStakeCents: number | null = null;
  private stakesEnabled = true;
  private readonly soldOutTags = new Map<StakeCents, HTMLElement>();
  private readonly live: HTMLElement;
  /** The wheels' tally as they stop (« 2 cloches · 650 pts »); said to screen readers wheel by wheel already. */
  private readonly tallyLine: HTMLElement;
  private readonly takeover: Takeover;
  /** The balance the bar shows, and the count-up that carries it to a credited balance. */
  private shownBalance: number | null = null;
  private balanceCount: { target: number; tween: gsap.core.Tween } | null = null;
  private readonly resultLayer: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly footer: HTMLElement;
  private readonly demoBadge: HTMLElement;
  private revealTimeline: gsap.core.Timeline | null = null;
  /** What stays usable behind the result card: nothing (it is modal). */
  private readonly behindCard: HTMLElement[];

  constructor(
    host: HTMLElement,
    private readonly t: Strings,
    private readonly locale: Locale,
    private readonly handlers: HudHandlers,
  ) {
    this.root = host;
    this.canvasHost = el('div', { className: 'canvas-host' });

    const logo = el('h1', { className: 'logo', attrs: { 'aria-label': t.title } }, [
      el('span', { className: 'logo-spin', text: 'SPIN' }),
      el('span', { className: 'logo-cake', text: 'CAKE' }),
    ]);
    this.muteButton = button('icon-button', '', t.mute);
    this.muteButton.append(icon(ICONS.soundOn));
    this.muteButton.addEventListener('click', () => handlers.toggleMute());
    // A switch (on / off), not a press button: screen readers say « Rotation rapide, activé ».
    this.quickSpinSwitch = button('icon-button quick-spin', '', t.quickSpin);
    this.quickSpinSwitch.setAttribute('role', 'switch');
    this.quickSpinSwitch.setAttribute('aria-checked', 'false');
    this.quickSpinSwitch.title = t.quickSpin;
    this.quickSpinSwitch.append(icon(ICONS.quickSpin));
    this.quickSpinSwitch.addEventListener('click', () => handlers.toggleQuickSpin());
    const historyButton = button('icon-button', '', t.history);
    historyButton.append(icon(ICONS.history));
    historyButton.addEventListener('click', () => handlers.history());
    const rulesButton = button('icon-button', '', t.rules);
    rulesButton.append(icon(ICONS.rules));
    rulesButton.addEventListener('click', () => handlers.rules());
    const header = el('header', { className: 'top' }, [
      logo,
      el('nav', { className: 'corner', attrs: { 'aria-label': t.title } }, [
        this.muteButton,
        this.quickSpinSwitch,
        historyButton,
        rulesButton,
      ]),
    ]);

    this.goButtons = [0, 1, 2, 3].map((i) => {
      const b = button('go wheel-go', t.go, t.goWheelLabel(i + 1));
      b.dataset.wheel = String(i + 1);
      b.addEventListener('click', () => handlers.go(i));
      return b;
    });

    this.balanceValue = el('span', { className: 'balance-value', text: '—' });
    this.balancePending = el('span', { className: 'balance-pending', text: t.balancePending });
    this.balancePending.hidden = true;
    this.demoBadge = el('span', { className: 'demo-badge', text: t.demo, attrs: { title: t.demoLabel } });
    this.demoBadge.hidden = true;
    const balance = el('div', { className: 'balance' }, [
      el('span', { className: 'balance-label' }, [t.balance, this.demoBadge]),
      this.balanceValue,
      this.balancePending,
    ]);
    this.stakeRow = el('div', { className: 'stakes', attrs: { role: 'group', 'aria-label': t.stakeHeading } });
    this.playButton = button('play', t.play);
    this.playButton.addEventListener('click', () => handlers.play());
    this.goAllButton = button('go go-all', t.goAll, t.goAllLabel);
    this.goAllButton.addEventListener('click', () => handlers.goAll());
    this.bar = el('div', { className: 'bar' }, [
      balance,
      this.stakeRow,
      el('div', { className: 'actions' }, [this.playButton, this.goAllButton]),
    ]);

    this.messageText = el('p', { className: 'message-text', attrs: { role: 'alert' } });
    this.depositButton = button('deposit', t.deposit);
    this.depositButton.hidden = true;
    this.depositButton.addEventListener('click', () => handlers.deposit?.());
    this.reloadDemoButton = button('deposit reload-demo', t.reloadDemo);
    this.reloadDemoButton.hidden = true;
    this.reloadDemoButton.addEventListener('click', () => handlers.reloadDemo());
    this.message = el('div', { className: 'message' }, [this.messageText, this.depositButton, this.reloadDemoButton]);
    this.live = el('div', { className: 'sr-only', attrs: { 'aria-live': 'polite', role: 'status' } });
    this.tallyLine = el('p', { className: 'live-tally', attrs: { 'aria-hidden': 'true' } });
    this.resultLayer = el('div', { className: 'result-layer', attrs: { hidden: '' } });
    this.takeover = new Takeover(host, t);
    // On the document: a click on the dimmed table behind must not let the keys escape the card.
    document.addEventListener('keydown', (e) => this.resultOpen && !this.takeover.open && this.onCardKey(e));

    // Responsible gaming, always on screen (as French online lottery games show it).
    this.footer = el('footer', { className: 'responsible' }, [
      el('span', { className: 'age', text: t.adultsOnly, attrs: { 'aria-label': t.adultsOnlyLabel } }),
      el('span', { className: 'risk', text: t.riskLine }),
    ]);
    host.append(
      this.canvasHost,
      header,
      ...this.goButtons,
      this.bar,
      this.message,
      this.tallyLine,
      this.footer,
      this.resultLayer,
      this.live,
    );
    this.behindCard = [header, ...this.goButtons, this.bar, this.message, this.footer];
  }

  /** Whether the result card (a modal dialog) is up: no panel may open over it. */
  get resultOpen(): boolean {
    return !this.resultLayer.hidden || this.takeover.open;
  }

  focus(target: FocusTarget): void {
    if (this.resultOpen) return;
    const wanted = target === 'play' ? this.playButton : target === 'goAll' ? this.goAllButton : this.goButtons[target];
    // « Jouer » can be unusable (no stake on sale, balance too low): then the stakes' turn.
    const usable = [wanted, ...this.stakeButtons.values()].find((b) => b && !b.disabled);
    usable?.focus({ preventScroll: true });
  }

  /** The card's keys: Escape closes it, Tab and Shift+Tab go round its own controls. */
  private onCardKey(e: KeyboardEvent): void {
    if (e.key === 'Escape') {
      e.preventDefault();
      this.handlers.closeResult();
      return;
    }
    if (e.key !== 'Tab') return;
    const focusable = [...this.resultLayer.querySelectorAll<HTMLElement>('button:not(:disabled), [tabindex="0"]')];
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

  relayout(layout: Layout): void {
    this.root.dataset.layout = layout.mode;
    // The DOM layer is drawn at the design size and zoomed by the layout's scale on large
    // screens (styles.css, --ui-scale): what it is given here is in design pixels.
    const s = layout.scale;
    this.root.style.setProperty('--ui-scale', String(s));
    layout.goButtons.forEach((r, i) => {
      const b = this.goButtons[i]!;
      b.style.left = `${r.x / s}px`;
      b.style.top = `${r.y / s}px`;
      b.style.width = `${r.width / s}px`;
      b.style.height = `${r.height / s}px`;
    });
    this.bar.style.height = `${layout.bar.height / s}px`;
    this.root.style.setProperty('--footer', `${layout.footer.height / s}px`);
  }

  /** The responsible-gaming footer's natural height at the page's width now (phones: it wraps). */
  footerHeight(): number {
    return this.footer.getBoundingClientRect().height;
  }

  /** A demo balance is play money: said on it. */
  setDemo(demo: boolean): void {
    this.demoBadge.hidden = !demo;
    this.balanceValue.setAttribute('aria-description', demo ? this.t.demoLabel : '');
  }

  /** The portal's page for limits and self-exclusion, when it gave one. */
  setLimitsLink(url: string | null): void {
    this.footer.querySelector('.limits')?.remove();
    if (!url) return;
    this.footer.append(
      el('a', {
        className: 'limits',
        text: this.t.limitsLink,
        attrs: { href: url, target: '_blank', rel: 'noopener' },
      }),
    );
  }

  setStakes(offers: readonly StakeOffer[], selected: StakeCents, maxCents: number | null): void {
    if (this.stakeButtons.size === 0) {
      for (const offer of offers) {
        const amount = formatCents(offer.stakeCents, this.locale);
        const b = button('stake', amount, this.t.stakeLabel(amount));
        const tag = el('span', { className: 'sold-out-tag', text: this.t.soldOut, attrs: { 'aria-hidden': 'true' } });
        b.append(tag);
        b.addEventListener('click', () => this.handlers.stake(offer.stakeCents));
        this.stakeButtons.set(offer.stakeCents, b);
        this.soldOutTags.set(offer.stakeCents, tag);
        this.stakeRow.append(b);
      }
    }
    for (const offer of offers) {
      const b = this.stakeButtons.get(offer.stakeCents);
      if (!b) continue;
      const amount = formatCents(offer.stakeCents, this.locale);
      b.setAttribute('aria-pressed', String(offer.stakeCents === selected));
      // Said in words, on the button itself: touch screens never show a tooltip.
      b.classList.toggle('sold-out', !offer.onSale);
      b.setAttribute('aria-label', offer.onSale ? this.t.stakeLabel(amount) : this.t.soldOutLabel(amount));
    }
    this.maxStakeCents = maxCents;
    this.applyStakesEnabled();
  }

  /** A stake button works at an idle table, and only for a stake the balance can pay. */
  private applyStakesEnabled(): void {
    for (const [stake, b] of this.stakeButtons) {
      b.disabled = !this.stakesEnabled || (this.maxStakeCents !== null && stake > this.maxStakeCents);
    }
  }

  offerDeposit(shown: boolean): void {
    this.depositButton.hidden = !shown || !this.handlers.deposit;
  }

  offerDemoReload(offer: DemoReloadOffer): void {
    const b = this.reloadDemoButton;
    b.hidden = offer === 'none';
    b.disabled = offer === 'busy';
    b.textContent = offer === 'busy' ? this.t.reloadDemoBusy : this.t.reloadDemo;
    b.setAttribute('aria-busy', String(offer === 'busy'));
  }

  setControls(c: ControlsState): void {
    this.playButton.disabled = !c.canPlay;
    // A pending purchase: the button says it resends that purchase, not a new one.
    const pending = c.pendingStakeCents;
    const name = pending === null ? this.t.play : this.t.resumePurchaseLabel(formatCents(pending, this.locale));
    this.playButton.textContent = c.buying ? this.t.playBusy : pending === null ? this.t.play : this.t.resumePurchase;
    this.playButton.classList.toggle('pending', pending !== null);
    this.playButton.setAttribute('aria-busy', String(c.buying));
    // The accessible name stays the same while busy, and names the pending purchase's stake.
    if (c.buying || pending !== null) this.playButton.setAttribute('aria-label', name);
    else this.playButton.removeAttribute('aria-label');
    this.goButtons.forEach((b, i) => (b.disabled = !c.canGo[i]));
    this.goAllButton.disabled = !c.canGoAll;
    this.stakesEnabled = c.stakesEnabled;
    this.applyStakesEnabled();
  }

  setBalance(cents: number | null, pending = false): void {
    // The card is counting the balance up to this very figure: let it get there.
    if (this.balanceCount && cents === this.balanceCount.target) return;
    this.balanceCount?.tween.kill();
    this.balanceCount = null;
    this.writeBalance(cents, pending);
  }

  /** `pending`: a purchase whose answer was lost holds this stake (shown as spent, marked as waiting). */
  private writeBalance(cents: number | null, pending = false): void {
    this.shownBalance = cents;
    this.balanceValue.textContent = cents === null ? '—' : formatCents(cents, this.locale);
    this.balanceValue.classList.toggle('pending', pending);
    this.balancePending.hidden = !pending;
  }

  /** The count-up is over (or cut short): the credited balance, exactly. */
  private endBalanceCount(cents: number): void {
    if (this.balanceCount?.target !== cents) return;
    this.balanceCount = null;
    this.writeBalance(cents);
  }

  showTally(text: string | null): void {
    this.tallyLine.textContent = text ?? '';
    this.tallyLine.classList.toggle('visible', !!text);
  }

  setMuted(muted: boolean): void {
    this.muteButton.replaceChildren(icon(muted ? ICONS.soundOff : ICONS.soundOn));
    this.muteButton.setAttribute('aria-label', muted ? this.t.unmute : this.t.mute);
    this.muteButton.setAttribute('aria-pressed', String(muted));
  }

  setQuickSpin(on: boolean): void {
    this.quickSpin = on;
    this.quickSpinSwitch.setAttribute('aria-checked', String(on));
  }

  showMessage(text: string | null): void {
    // The server's own words (an operator's closed-sales message) are typeset like ours.
    this.messageText.textContent = text === null ? '' : typeset(text, this.locale);
    this.message.classList.toggle('visible', !!text);
    document.body.dataset.message = text ? 'shown' : 'none';
  }

  announce(text: string): void {
    const line = el('p', { text });
    this.live.append(line);
    while (this.live.childElementCount > 8) this.live.firstElementChild?.remove();
  }

  /**
   * The result card: JEU 1, JEU 2, the four segments under the cursors (Article 4.5), then
   * the single total, counting up. « Voir les roues » folds it into a strip at the bottom
   * so the four stopped wheels show with the result. `replayOf` (the play's date) labels
   * it as a replay of a past play from the history.
   */
  showResult(play: Play, reducedMotion: boolean, replayOf?: string, resumed = false): void {
    const level = winLevel(play.winCents, play.stakeCents);
    const tier = level.tier;
    if (replayOf !== undefined || (tier !== 'big' && tier !== 'mega' && tier !== 'jackpot')) {
      this.showCard(play, reducedMotion, replayOf, resumed);
      return;
    }
    for (const behind of this.behindCard) behind.inert = true;
    document.body.dataset.overlay = 'takeover';
    // The credit waits through the takeover too: the card counts it up (showCard).
    if (this.shownBalance === play.balanceBeforeCents - play.stakeCents) {
      this.balanceCount?.tween.kill();
      this.balanceCount = { target: play.balanceAfterCents, tween: gsap.to({}, { duration: 0, paused: true }) };
    }
    this.takeover.show(
      {
        tier,
        winCents: play.winCents,
        money: (c) => formatCents(c, this.locale),
        holdS: level.takeoverS,
        countUpS: level.countUpS,
        reducedMotion,
        timeScale: this.quickSpin ? 2 : 1,
      },
      () => this.showCard(play, reducedMotion, undefined, resumed),
    );
  }

  private showCard(play: Play, reducedMotion: boolean, replayOf?: string, resumed = false): void {
    const t = this.t;
    const level = winLevel(play.winCents, play.stakeCents);
    const money = (c: number) => formatCents(c, this.locale);
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
    again.addEventListener('click', () => this.handlers.closeResult());
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
      const folded = !this.resultLayer.classList.contains('folded');
      this.resultLayer.classList.toggle('folded', folded);
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
    this.resultLayer.classList.remove('folded');
    this.resultLayer.replaceChildren(card);
    this.resultLayer.hidden = false;
    for (const behind of this.behindCard) behind.inert = true;
    document.body.dataset.overlay = 'revealing';
    // Into the dialog at once: its button is the player's next action.
    again.focus({ preventScroll: true });

    this.revealTimeline?.kill();
    // The credit shows in the bar with the card's total, never before it (a replay's balance stays today's).
    const balanceFrom = play.balanceBeforeCents - play.stakeCents;
    const countsBalance = replayOf === undefined && play.winCents > 0 && this.shownBalance === balanceFrom;
    const tl = gsap.timeline({
      onComplete: () => {
        totalValue.textContent = money(play.winCents);
        if (countsBalance) this.endBalanceCount(play.balanceAfterCents);
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
      onUpdate: () => this.writeBalance(Math.round(shown.cents)),
      onComplete: () => this.endBalanceCount(play.balanceAfterCents),
    });
    if (countsBalance) {
      this.balanceCount?.tween.kill();
      this.balanceCount = { target: play.balanceAfterCents, tween: balanceTween };
    }
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
    if (this.quickSpin) tl.timeScale(3);
    this.revealTimeline = tl;
  }

  private replayAgainButton(): HTMLButtonElement {
    const b = button('peek replay-again', this.t.replayAgain);
    b.addEventListener('click', () => this.handlers.replayAgain());
    return b;
  }

  hideResult(): void {
    this.revealTimeline?.kill();
    this.revealTimeline = null;
    document.body.dataset.overlay = 'hidden';
    this.takeover.dismiss();
    // Closed mid count-up: the credited balance at once.
    if (this.balanceCount) {
      this.balanceCount.tween.kill();
      this.endBalanceCount(this.balanceCount.target);
    }
    const hadFocus = this.resultLayer.contains(document.activeElement);
    this.resultLayer.hidden = true;
    this.resultLayer.replaceChildren();
    for (const behind of this.behindCard) behind.inert = false;
    document.body.dataset.overlay = 'hidden';
    if (hadFocus) this.focus('play');
  }
}
