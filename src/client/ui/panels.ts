import type { Play, PlaysPage } from '../../contract/api.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import { stakeEuros, type StakeCents } from '../../rules/stakes.ts';
import {
  BLOCK_SIZE,
  blockLotTable,
  blockPayoutBasisPoints,
  JEU1_TABLE,
  JEU2_TABLE,
  WINNING_UNITS_PER_BLOCK,
} from '../../rules/tables.ts';
import type { Strings } from '../i18n/index.ts';
import type { ApiResult } from '../net/http.ts';
import { button, el, icon, ICONS } from './dom.ts';
import { ticketCheckView, type TicketCheckOutcome } from './ticketCheck.ts';

/**
 * A modal side panel (history, rules): a real dialog, closed by its button or Escape,
 * focus returned to the control that opened it.
 */
export class Panel {
  private readonly layer: HTMLElement;
  readonly body: HTMLElement;
  private opener: HTMLElement | null = null;

  constructor(host: HTMLElement, id: string, title: string, t: Strings) {
    const close = button('icon-button panel-close', '', t.close);
    close.append(icon(ICONS.close));
    close.addEventListener('click', () => this.close());
    this.body = el('div', { className: 'panel-body' });
    const heading = el('h2', { text: title, attrs: { id: `${id}-title` } });
    const panel = el(
      'section',
      { className: 'panel', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': `${id}-title`, id } },
      [el('div', { className: 'panel-head' }, [heading, close]), this.body],
    );
    this.layer = el('div', { className: 'panel-layer', attrs: { hidden: '' } }, [panel]);
    this.layer.addEventListener('click', (e) => e.target === this.layer && this.close());
    this.layer.addEventListener('keydown', (e) => e.key === 'Escape' && this.close());
    host.append(this.layer);
  }

  get isOpen(): boolean {
    return !this.layer.hidden;
  }

  open(): void {
    this.opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.layer.hidden = false;
    this.layer.querySelector<HTMLElement>('.panel-close')?.focus();
  }

  close(): void {
    this.layer.hidden = true;
    this.opener?.focus();
  }
}

function table(headers: string[], rows: string[][]): HTMLTableElement {
  return el('table', {}, [
    el('thead', {}, [
      el(
        'tr',
        {},
        headers.map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    el(
      'tbody',
      {},
      rows.map((r) =>
        el(
          'tr',
          {},
          r.map((c) => el('td', { text: c })),
        ),
      ),
    ),
  ]);
}

/** Article 3, 4.6 and 4.7 for one stake, from src/rules (never typed twice). */
export function fillRules(body: HTMLElement, stake: StakeCents, t: Strings, locale: Locale): void {
  const money = (c: number) => formatCents(c, locale);
  const euros = stakeEuros(stake);
  const nf = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 2 });
  const oneIn = nf.format(Math.round((BLOCK_SIZE / WINNING_UNITS_PER_BLOCK) * 100) / 100);
  const payout = `${nf.format(blockPayoutBasisPoints(stake) / 100)} %`;
  body.replaceChildren(
    ...t.rulesIntro.map((p) => el('p', { text: p })),
    el('h3', { text: t.rulesJeu1Heading }),
    table(
      ['', t.rulesAmount],
      JEU1_TABLE.map((r) => [t.rulesBells(r.bells), money(r.perEuroCents * euros)]),
    ),
    el('h3', { text: t.rulesJeu2Heading }),
    table(
      ['', t.rulesAmount],
      JEU2_TABLE.map((r) => [t.rulesPoints(r.minPoints, r.maxPoints), money(r.perEuroCents * euros)]),
    ),
    el('h3', { text: t.rulesBlockHeading(money(stake)) }),
    table(
      [t.rulesLots, t.rulesAmount],
      blockLotTable(stake).map((r) => [nf.format(r.count), r.lotCents > 0 ? money(r.lotCents) : t.rulesLosing]),
    ),
    el('p', { className: 'odds', text: t.rulesOdds(oneIn, payout) }),
  );
}

/** The player's plays, newest first, ten at a time. */
export class HistoryList {
  private nextBefore: string | null = null;

  constructor(
    private readonly body: HTMLElement,
    private readonly t: Strings,
    private readonly locale: Locale,
    private readonly load: (before?: string) => Promise<ApiResult<PlaysPage>>,
    /** Replays a play on the wheels (Article 4.1); false when the table is in a round. */
    private readonly replay?: (play: Play) => boolean,
    /** « Vérifier ce ticket »: checks the play's proof in the browser. */
    private readonly check?: (play: Play) => Promise<TicketCheckOutcome>,
  ) {}

  async refresh(): Promise<void> {
    this.body.replaceChildren();
    this.nextBefore = null;
    await this.more();
  }

  private async more(): Promise<void> {
    const page = await this.load(this.nextBefore ?? undefined);
    this.body.querySelector('.history-more')?.remove();
    if (!page.ok) {
      this.body.append(el('p', { text: page.kind === 'network' ? this.t.errors.network : this.t.errors.unknown }));
      return;
    }
    let list = this.body.querySelector('ol');
    if (!list) {
      if (page.data.plays.length === 0) {
        this.body.append(el('p', { text: this.t.historyEmpty }));
        return;
      }
      list = el('ol', { className: 'history' });
      this.body.append(list);
    }
    for (const play of page.data.plays) list.append(this.row(play));
    this.nextBefore = page.data.nextBefore;
    if (this.nextBefore) {
      const more = button('stake history-more', this.t.historyMore);
      more.addEventListener('click', () => void this.more());
      this.body.append(more);
    }
  }

  private row(play: Play): HTMLElement {
    const t = this.t;
    const money = (c: number) => formatCents(c, this.locale);
    const date = new Date(play.createdAt).toLocaleString(this.locale === 'fr' ? 'fr-FR' : 'en-GB', {
      dateStyle: 'short',
      timeStyle: 'medium',
    });
    const cursors = play.wheels
      .map((w) => {
        const s = w.segments[w.stop]!;
        return `${s.points} ${t.symbols[s.symbol]}`;
      })
      .join(' · ');
    const content = [
      el('div', { className: 'history-top' }, [
        el('span', { className: 'history-date', text: date }),
        el('span', { className: 'history-stake', text: `${t.historyStake} ${money(play.stakeCents)}` }),
        el('strong', {
          className: 'history-win',
          text: play.winCents > 0 ? `${t.historyWin} ${money(play.winCents)}` : t.noWin,
        }),
      ]),
      el('div', { className: 'history-cursors', text: t.historyCursors(cursors) }),
      ...(play.finished ? [] : [el('span', { className: 'history-unfinished', text: t.historyUnfinished })]),
    ];
    const li = el('li', { className: play.winCents > 0 ? 'won' : '', attrs: { 'data-play-id': play.playId } });
    const replay = this.replay;
    if (!replay) {
      li.append(...content, ...this.checkControl(play));
      return li;
    }
    // The row itself is the control (no extra button, so it looks the same): its text
    // names it, the description says what it does.
    const activator = el(
      'div',
      { attrs: { role: 'button', tabindex: '0', 'aria-description': t.historyReplay } },
      content,
    );
    activator.addEventListener('click', () => replay(play));
    activator.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      replay(play);
    });
    li.append(activator, ...this.checkControl(play));
    return li;
  }

  /** The row's « Vérifier ce ticket » button (beside the row's own control, never inside it). */
  private checkControl(play: Play): HTMLElement[] {
    const check = this.check;
    if (!check) return [];
    const t = this.t;
    const action = button('history-verify', t.ticketCheck.action);
    let result: HTMLElement | null = null;
    action.addEventListener('click', () => {
      action.disabled = true;
      action.textContent = t.ticketCheck.busy;
      void check(play).then((outcome) => {
        const view = ticketCheckView(outcome, t, this.locale);
        if (result) result.replaceWith(view);
        else action.after(view);
        result = view;
        action.disabled = false;
        action.textContent = t.ticketCheck.action;
      });
    });
    return [action];
  }
}
