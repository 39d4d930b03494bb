import type gsap from 'gsap';
import type { Play, StakeOffer } from '../../contract/api.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import type { StakeCents } from '../../rules/stakes.ts';
import type { ControlsState, ControlsView, DemoReloadOffer, FocusTarget } from '../game/views.ts';
import type { Strings } from '../i18n/index.ts';
import { typeset } from '../i18n/typography.ts';
import { button, el, icon, ICONS } from './dom.ts';
import type { Layout } from './layout.ts';
import { ResultCard, type CardBalance } from './resultCard.ts';

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
 * accessible name, positioned from the same layout as the wheels; plus the message line,
 * a polite live region, and the result card (ui/resultCard.ts).
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
  private readonly card: ResultCard;
  /** The balance the bar shows, and the count-up that carries it to a credited balance. */
  private shownBalance: number | null = null;
  private balanceCount: { target: number; tween: gsap.core.Tween } | null = null;
  private readonly bar: HTMLElement;
  private readonly footer: HTMLElement;
  private readonly demoBadge: HTMLElement;
  /** What stays usable behind the result card: nothing (it is modal). */
  private readonly behindCard: HTMLElement[];

  constructor(
    host: HTMLElement,
    private readonly strings: Strings,
    private readonly locale: Locale,
    private readonly handlers: HudHandlers,
  ) {
    this.root = host;
    this.canvasHost = el('div', { className: 'canvas-host' });

    const logo = el('h1', { className: 'logo', attrs: { 'aria-label': strings.title } }, [
      el('span', { className: 'logo-spin', text: 'SPIN' }),
      el('span', { className: 'logo-cake', text: 'CAKE' }),
    ]);
    this.muteButton = button('icon-button', '', strings.mute);
    this.muteButton.append(icon(ICONS.soundOn));
    this.muteButton.addEventListener('click', () => handlers.toggleMute());
    // A switch (on / off), not a press button: screen readers say « Rotation rapide, activé ».
    this.quickSpinSwitch = button('icon-button quick-spin', '', strings.quickSpin);
    this.quickSpinSwitch.setAttribute('role', 'switch');
    this.quickSpinSwitch.setAttribute('aria-checked', 'false');
    this.quickSpinSwitch.title = strings.quickSpin;
    this.quickSpinSwitch.append(icon(ICONS.quickSpin));
    this.quickSpinSwitch.addEventListener('click', () => handlers.toggleQuickSpin());
    const historyButton = button('icon-button', '', strings.history);
    historyButton.append(icon(ICONS.history));
    historyButton.addEventListener('click', () => handlers.history());
    const rulesButton = button('icon-button', '', strings.rules);
    rulesButton.append(icon(ICONS.rules));
    rulesButton.addEventListener('click', () => handlers.rules());
    const header = el('header', { className: 'top' }, [
      logo,
      el('nav', { className: 'corner', attrs: { 'aria-label': strings.title } }, [
        this.muteButton,
        this.quickSpinSwitch,
        historyButton,
        rulesButton,
      ]),
    ]);

    this.goButtons = [0, 1, 2, 3].map((i) => {
      const b = button('go wheel-go', strings.go, strings.goWheelLabel(i + 1));
      b.dataset.wheel = String(i + 1);
      b.addEventListener('click', () => handlers.go(i));
      return b;
    });

    this.balanceValue = el('span', { className: 'balance-value', text: '—' });
    this.balancePending = el('span', { className: 'balance-pending', text: strings.balancePending });
    this.balancePending.hidden = true;
    this.demoBadge = el('span', { className: 'demo-badge', text: strings.demo, attrs: { title: strings.demoLabel } });
    this.demoBadge.hidden = true;
    const balance = el('div', { className: 'balance' }, [
      el('span', { className: 'balance-label' }, [strings.balance, this.demoBadge]),
      this.balanceValue,
      this.balancePending,
    ]);
    this.stakeRow = el('div', { className: 'stakes', attrs: { role: 'group', 'aria-label': strings.stakeHeading } });
    this.playButton = button('play', strings.play);
    this.playButton.addEventListener('click', () => handlers.play());
    this.goAllButton = button('go go-all', strings.goAll, strings.goAllLabel);
    this.goAllButton.addEventListener('click', () => handlers.goAll());
    this.bar = el('div', { className: 'bar' }, [
      balance,
      this.stakeRow,
      el('div', { className: 'actions' }, [this.playButton, this.goAllButton]),
    ]);

    this.messageText = el('p', { className: 'message-text', attrs: { role: 'alert' } });
    this.depositButton = button('deposit', strings.deposit);
    this.depositButton.hidden = true;
    this.depositButton.addEventListener('click', () => handlers.deposit?.());
    this.reloadDemoButton = button('deposit reload-demo', strings.reloadDemo);
    this.reloadDemoButton.hidden = true;
    this.reloadDemoButton.addEventListener('click', () => handlers.reloadDemo());
    this.message = el('div', { className: 'message' }, [this.messageText, this.depositButton, this.reloadDemoButton]);
    this.live = el('div', { className: 'sr-only', attrs: { 'aria-live': 'polite', role: 'status' } });
    this.tallyLine = el('p', { className: 'live-tally', attrs: { 'aria-hidden': 'true' } });
    this.card = new ResultCard({
      host,
      strings,
      locale,
      balance: this.cardBalance(),
      behind: () => this.behindCard,
      quickSpin: () => this.quickSpin,
      closeResult: () => handlers.closeResult(),
      replayAgain: () => handlers.replayAgain(),
    });

    // Responsible gaming, always on screen (as French online lottery games show it).
    this.footer = el('footer', { className: 'responsible' }, [
      el('span', { className: 'age', text: strings.adultsOnly, attrs: { 'aria-label': strings.adultsOnlyLabel } }),
      el('span', { className: 'risk', text: strings.riskLine }),
    ]);
    host.append(
      this.canvasHost,
      header,
      ...this.goButtons,
      this.bar,
      this.message,
      this.tallyLine,
      this.footer,
      this.card.layer,
      this.live,
    );
    this.behindCard = [header, ...this.goButtons, this.bar, this.message, this.footer];
  }

  /** Whether the result card (a modal dialog) is up: no panel may open over it. */
  get resultOpen(): boolean {
    return this.card.open;
  }

  focus(target: FocusTarget): void {
    if (this.resultOpen) return;
    const wanted = target === 'play' ? this.playButton : target === 'goAll' ? this.goAllButton : this.goButtons[target];
    // « Jouer » can be unusable (no stake on sale, balance too low): then the stakes' turn.
    const usable = [wanted, ...this.stakeButtons.values()].find((b) => b && !b.disabled);
    usable?.focus({ preventScroll: true });
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
    this.balanceValue.setAttribute('aria-description', demo ? this.strings.demoLabel : '');
  }

  /** The portal's page for limits and self-exclusion, when it gave one. */
  setLimitsLink(url: string | null): void {
    this.footer.querySelector('.limits')?.remove();
    if (!url) return;
    this.footer.append(
      el('a', {
        className: 'limits',
        text: this.strings.limitsLink,
        attrs: { href: url, target: '_blank', rel: 'noopener' },
      }),
    );
  }

  setStakes(offers: readonly StakeOffer[], selected: StakeCents, maxCents: number | null): void {
    if (this.stakeButtons.size === 0) {
      for (const offer of offers) {
        const amount = formatCents(offer.stakeCents, this.locale);
        const b = button('stake', amount, this.strings.stakeLabel(amount));
        const tag = el('span', {
          className: 'sold-out-tag',
          text: this.strings.soldOut,
          attrs: { 'aria-hidden': 'true' },
        });
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
      b.setAttribute('aria-label', offer.onSale ? this.strings.stakeLabel(amount) : this.strings.soldOutLabel(amount));
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
    b.textContent = offer === 'busy' ? this.strings.reloadDemoBusy : this.strings.reloadDemo;
    b.setAttribute('aria-busy', String(offer === 'busy'));
  }

  setControls(c: ControlsState): void {
    this.playButton.disabled = !c.canPlay;
    // A pending purchase: the button says it resends that purchase, not a new one.
    const pending = c.pendingStakeCents;
    const name =
      pending === null ? this.strings.play : this.strings.resumePurchaseLabel(formatCents(pending, this.locale));
    this.playButton.textContent = c.buying
      ? this.strings.playBusy
      : pending === null
        ? this.strings.play
        : this.strings.resumePurchase;
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
    this.muteButton.setAttribute('aria-label', muted ? this.strings.unmute : this.strings.mute);
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

  showResult(play: Play, reducedMotion: boolean, replayOf?: string, resumed = false): void {
    this.card.show(play, reducedMotion, replayOf, resumed);
  }

  hideResult(): void {
    if (this.card.hide()) this.focus('play');
  }

  /** The bar's balance, as the card counts a credit up with its total. */
  private cardBalance(): CardBalance {
    const shown = () => this.shownBalance;
    return {
      get shown() {
        return shown();
      },
      countTo: (target, tween) => {
        this.balanceCount?.tween.kill();
        this.balanceCount = { target, tween };
      },
      write: (cents) => this.writeBalance(cents),
      end: (cents) => this.endBalanceCount(cents),
      // Closed mid count-up: the credited balance at once.
      finish: () => {
        if (!this.balanceCount) return;
        this.balanceCount.tween.kill();
        this.endBalanceCount(this.balanceCount.target);
      },
    };
  }
}
