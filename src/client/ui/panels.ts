import type { Play, PlaysPage, SignedTreeHeadResponse } from '../../contract/api.ts';
import { formatCents, formatCount, type Locale } from '../../rules/money.ts';
import { rulesView } from '../game/rulesView.ts';
import type { Strings } from '../i18n/index.ts';
import { formatSignedCents } from '../i18n/typography.ts';
import type { ApiResult } from '../net/http.ts';
import { button, el, icon, ICONS } from './dom.ts';
import type { TicketCheckOutcome } from './ticketCheck.ts';
import { ticketCheckView } from './ticketCheckView.ts';

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

function table(headers: string[], rows: string[][], foot?: string[], caption?: string): HTMLTableElement {
  const t = el('table', {}, [
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
          r.map((c, i) => el(i === 0 ? 'th' : 'td', { text: c, attrs: i === 0 ? { scope: 'row' } : {} })),
        ),
      ),
    ),
  ]);
  if (foot) {
    t.append(
      el('tfoot', {}, [
        el(
          'tr',
          {},
          foot.map((c, i) => el(i === 0 ? 'th' : 'td', { text: c, attrs: i === 0 ? { scope: 'row' } : {} })),
        ),
      ]),
    );
  }
  if (caption) t.prepend(el('caption', { className: 'sr-only', text: caption }));
  return t;
}

/**
 * Articles 3, 4.6 and 4.7 for every stake, as the regulation lays them out: each
 * stake's block with its total line and the lots reached only by adding both games,
 * JEU 1 and JEU 2 at the four stakes, the odds and the payout rate. Every figure comes
 * from src/rules (through rulesView), never typed twice.
 */
export function fillRules(body: HTMLElement, t: Strings, locale: Locale): void {
  const money = (c: number) => formatCents(c, locale);
  const count = (n: number) => formatCount(n, locale);
  const view = rulesView();
  const nf = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 2 });
  const stakeHeaders = view.stakes.map((s) => t.rulesStakeColumn(money(s)));
  const blocks = view.blocks.map((b) => {
    const amounts = b.addedOnlyCents.map(money);
    return el('section', { className: 'rules-block' }, [
      el('h4', { text: t.rulesBlockHeading(money(b.stake)) }),
      table(
        [t.rulesLots, t.rulesAmount, t.rulesTotal],
        b.rows.map((r) => [t.rulesLotCount(r.count, count(r.count)), money(r.lotCents), money(r.totalCents)]),
        // The block's total is a sum of the « Total » column: it goes under it.
        [t.rulesBlockTotal(count(b.winningUnits)), '', money(b.totalCents)],
      ),
      el('p', { className: 'rules-note', text: t.rulesAddedOnly(amounts) }),
    ]);
  });
  body.replaceChildren(
    ...t.rulesIntro.map((p) => el('p', { text: p })),
    el('h3', { text: t.rulesJeu1Heading }),
    el('div', { className: 'rules-wide' }, [
      table(
        [t.rulesFind, ...stakeHeaders],
        view.jeu1.map((r) => [t.rulesBells(r.bells!), ...r.winCents.map(money)]),
      ),
    ]),
    el('h3', { text: t.rulesJeu2Heading }),
    el('div', { className: 'rules-wide' }, [
      table(
        [t.rulesCollect, ...stakeHeaders],
        view.jeu2.map((r) => [t.rulesPoints(r.minPoints!, r.maxPoints!), ...r.winCents.map(money)]),
      ),
    ]),
    el('p', { className: 'rules-note', text: t.rulesSum }),
    el('h3', { text: t.rulesLotsHeading }),
    el('p', {
      className: 'odds',
      text: t.rulesOdds(nf.format(view.oneInHundredths / 100), `${nf.format(view.payoutBasisPoints / 100)} %`),
    }),
    el('p', { text: t.rulesOddsDetail(count(view.winningUnits), count(view.blockSize)) }),
    ...blocks,
  );
}

/** The player's plays, newest first, ten at a time. */
export class HistoryList {
  private nextBefore: string | null = null;

  constructor(
    private readonly body: HTMLElement,
    private readonly strings: Strings,
    private readonly locale: Locale,
    private readonly load: (before?: string) => Promise<ApiResult<PlaysPage>>,
    /** Replays a play on the wheels (Article 4.1); false when the table is in a round. */
    private readonly replay?: (play: Play) => boolean,
    /** « Vérifier ce ticket »: checks the play's proof in the browser. */
    private readonly check?: (play: Play) => Promise<TicketCheckOutcome>,
    /** The session's figures (time, stakes, wins, net), shown above the plays. */
    private readonly session?: () => {
      minutes: number;
      stakedCents: number;
      wonCents: number;
      netCents: number;
    } | null,
    /** The play on the table now, whose result must not show before its wheels stopped. */
    private readonly liveRound?: () => string | null,
    /** The transparency log's newest head, shown in one line for the player to compare (docs/fairness.md, gossip). */
    private readonly logHead?: () => Promise<ApiResult<SignedTreeHeadResponse>>,
  ) {}

  async refresh(): Promise<void> {
    this.body.replaceChildren();
    const s = this.session?.();
    if (s) {
      const money = (c: number) => formatCents(c, this.locale);
      const net = formatSignedCents(s.netCents, this.locale);
      this.body.append(
        el('p', {
          className: 'session-line',
          text: this.strings.sessionLine(
            this.strings.sessionMinutes(s.minutes),
            money(s.stakedCents),
            money(s.wonCents),
            net,
          ),
          attrs: {
            'data-staked-cents': String(s.stakedCents),
            'data-won-cents': String(s.wonCents),
            'data-net-cents': String(s.netCents),
          },
        }),
      );
    }
    this.nextBefore = null;
    const head = this.logHead ? this.showLogHead(this.logHead()) : null;
    await this.more();
    await head;
  }

  /** One line above the plays: the log's size and the start of its root hash, as this page saw them. */
  private async showLogHead(answer: Promise<ApiResult<SignedTreeHeadResponse>>): Promise<void> {
    const line = el('p', { className: 'log-head' });
    this.body.append(line);
    const head = await answer;
    if (!head.ok) {
      line.remove();
      return;
    }
    const { treeSize, rootHash } = head.data;
    line.textContent = this.strings.logHead(formatCount(treeSize, this.locale), rootHash.slice(0, 16));
    line.dataset.treeSize = String(treeSize);
    line.dataset.rootHash = rootHash;
    line.title = rootHash;
  }

  private async more(): Promise<void> {
    const page = await this.load(this.nextBefore ?? undefined);
    this.body.querySelector('.history-more')?.remove();
    if (!page.ok) {
      this.body.append(
        el('p', { text: page.kind === 'network' ? this.strings.errors.network : this.strings.errors.unknown }),
      );
      return;
    }
    let list = this.body.querySelector('ol');
    if (!list) {
      if (page.data.plays.length === 0) {
        this.body.append(el('p', { text: this.strings.historyEmpty }));
        return;
      }
      list = el('ol', { className: 'history' });
      this.body.append(list);
    }
    for (const play of page.data.plays) list.append(this.row(play));
    this.nextBefore = page.data.nextBefore;
    if (this.nextBefore) {
      const more = button('stake history-more', this.strings.historyMore);
      more.addEventListener('click', () => void this.more());
      this.body.append(more);
    }
  }

  private row(play: Play): HTMLElement {
    const t = this.strings;
    const money = (c: number) => formatCents(c, this.locale);
    const date = new Date(play.createdAt).toLocaleString(this.locale === 'fr' ? 'fr-FR' : 'en-GB', {
      dateStyle: 'short',
      timeStyle: 'medium',
    });
    const live = this.liveRound?.() === play.playId;
    const top = el('div', { className: 'history-top' }, [
      el('span', { className: 'history-date', text: date }),
      el('span', { className: 'history-stake', text: `${t.historyStake} ${money(play.stakeCents)}` }),
      el('strong', {
        className: 'history-win',
        text: live ? t.historyUnfinished : play.winCents > 0 ? `${t.historyWin} ${money(play.winCents)}` : t.noWin,
      }),
    ]);
    const ref = el('div', { className: 'history-ref', text: t.historyRef(play.playId) });
    // A round still on the table keeps its result for its wheels (no spoiler).
    const content = live
      ? [top, el('div', { className: 'history-live', text: t.historyLive }), ref]
      : [
          top,
          el('div', { className: 'history-games' }, [
            el('span', {
              text: t.resultLine(
                t.jeu1,
                t.bellsFound(play.jeu1.bells),
                play.jeu1.winCents > 0 ? money(play.jeu1.winCents) : t.noWin,
              ),
            }),
            el('span', {
              text: t.resultLine(
                t.jeu2,
                t.pointsTotal(play.jeu2.points),
                play.jeu2.winCents > 0 ? money(play.jeu2.winCents) : t.noWin,
              ),
            }),
          ]),
          el('div', {
            className: 'history-cursors',
            text: t.historyCursors(
              play.wheels
                .map((w) => {
                  const seg = w.segments[w.stop]!;
                  return t.historySegment(seg.points, t.symbols[seg.symbol]);
                })
                .join(' · '),
            ),
          }),
          ref,
          ...(play.finished ? [] : [el('span', { className: 'history-unfinished', text: t.historyLeft })]),
        ];
    const li = el('li', { className: play.winCents > 0 ? 'won' : '', attrs: { 'data-play-id': play.playId } });
    const replay = this.replay;
    // A round still on the table shows no result, and so offers no check (it would show the lot).
    const check = live ? [] : this.checkControl(play);
    if (!replay) {
      li.append(...content, ...check);
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
    li.append(activator, ...check);
    return li;
  }

  /** The row's « Vérifier ce ticket » button (beside the row's own control, never inside it). */
  private checkControl(play: Play): HTMLElement[] {
    const check = this.check;
    if (!check) return [];
    const t = this.strings;
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
