import type { LogCheckName } from '../../transparency/index.ts';
import type { TicketCheckName } from '../../proofs/index.ts';
import { formatCents, type Locale } from '../../rules/money.ts';
import type { Strings } from '../i18n/index.ts';
import { el } from './dom.ts';
import type { TicketCheckOutcome } from './ticketCheck.ts';

/** The outcome in plain words, one line per check, for the history row. */
export function ticketCheckView(outcome: TicketCheckOutcome, t: Strings, locale: Locale): HTMLElement {
  const box = el('div', { className: 'ticket-check', attrs: { role: 'status' } });
  if (outcome.kind !== 'checked') {
    box.dataset.result = outcome.kind;
    box.append(el('p', { text: outcome.kind === 'no-proof' ? t.ticketCheck.noProof : outcome.message }));
    return box;
  }
  const { verdict } = outcome;
  const money = formatCents(outcome.lotCents, locale);
  box.dataset.result = verdict.ok ? 'verified' : 'refuted';
  box.append(
    el('p', {
      className: 'ticket-check-summary',
      text: verdict.ok ? t.ticketCheck.verified(outcome.position + 1, outcome.count) : t.ticketCheck.refuted,
    }),
    el(
      'ul',
      {},
      verdict.checks.map((check) =>
        el('li', {
          className: check.ok ? 'ok' : 'failed',
          text: `${check.ok ? '✓' : '✗'} ${t.ticketCheck.checks[check.name as TicketCheckName | LogCheckName](check.ok, money)}`,
          attrs: { 'data-check': check.name },
        }),
      ),
    ),
  );
  return box;
}
