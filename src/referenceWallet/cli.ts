import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { WALLET_PLAYER_ID } from '../walletApi/index.ts';
import { walletDbFile } from './config.ts';
import { STATEMENT_MAX_LIMIT, WalletLedger, type AccountView, type AdminResult } from './ledger.ts';

export const USAGE = `usage: npm run wallet -- <command>      (the reference operator wallet)
  serve                                   start the wallet (the default; WALLET_PORT, WALLET_SECRETS or WALLET_SECRET, WALLET_DB, WALLET_FAULT_*)
  create PLAYER [--balance CENTS] [--daily-limit CENTS] [--blocked]
                                          open an account (the opening balance is logged as a deposit)
  deposit PLAYER CENTS                    credit the account (logged)
  withdraw PLAYER CENTS                   debit the account, never below 0 (logged)
  block PLAYER | unblock PLAYER           refuse (or accept again) its balance and bet calls
  limit PLAYER CENTS|none                 daily stake limit (UTC day): bets beyond it answer LIMIT_REACHED
  show PLAYER                             the account, as JSON
  list                                    every account, one JSON line each
  statement --from ISO --to ISO           the transaction log of a period, one JSON line each
  check                                   every balance equals the sum of its logged movements
The commands work on WALLET_DB (default ./data/operator-wallet.sqlite), also while the wallet runs.`;

export class CliUsageError extends Error {}

function whole(raw: string | undefined, what: string): number {
  if (raw === undefined || !/^[0-9]{1,12}$/.test(raw))
    throw new CliUsageError(`${what} must be whole cents, got "${raw ?? ''}"`);
  return Number(raw);
}

function player(raw: string | undefined): string {
  if (raw === undefined || !WALLET_PLAYER_ID.test(raw)) {
    throw new CliUsageError(`a player id is 1–64 characters among A–Z a–z 0–9 _ -, got "${raw ?? ''}"`);
  }
  return raw;
}

function isoArg(raw: string | undefined, name: string): Date {
  const date = raw === undefined ? new Date(Number.NaN) : new Date(raw);
  if (raw === undefined || !/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(date.getTime())) {
    throw new CliUsageError(`--${name} must be an ISO 8601 date or date-time, got "${raw ?? ''}"`);
  }
  return date;
}

function parseCommand(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        balance: { type: 'string' },
        'daily-limit': { type: 'string' },
        blocked: { type: 'boolean' },
        from: { type: 'string' },
        to: { type: 'string' },
      },
    });
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Runs one admin command against the wallet's database; returns the exit code. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  print: (line: string) => void = (line) => console.log(line),
): number {
  const { positionals, values } = parseCommand(args);
  const [command, first, second] = positionals;
  const ledger = WalletLedger.open(walletDbFile(env));
  const show = (result: AdminResult<AccountView>): number => {
    if (!result.ok) {
      print(`${result.status}: ${result.reason}`);
      return 1;
    }
    print(JSON.stringify(result.value));
    return 0;
  };
  try {
    switch (command) {
      case 'create':
        return show(
          ledger.createAccount(player(first), {
            balanceCents: values.balance === undefined ? 0 : whole(values.balance, '--balance'),
            dailyStakeLimitCents:
              values['daily-limit'] === undefined ? null : whole(values['daily-limit'], '--daily-limit'),
            blocked: values.blocked ?? false,
          }),
        );
      case 'deposit':
      case 'withdraw': {
        const cents = whole(second, 'the amount');
        if (cents === 0) throw new CliUsageError('the amount must be above 0');
        return show(ledger.adjust(`admin-${randomUUID()}`, player(first), command === 'deposit' ? cents : -cents));
      }
      case 'block':
      case 'unblock':
        return show(ledger.setBlocked(player(first), command === 'block'));
      case 'limit':
        return show(ledger.setDailyStakeLimit(player(first), second === 'none' ? null : whole(second, 'the limit')));
      case 'show': {
        const view = ledger.view(player(first));
        return show(
          view ? { ok: true, value: view } : { ok: false, status: 'UNKNOWN_PLAYER', reason: `no account ${first}` },
        );
      }
      case 'list':
        for (const account of ledger.accounts()) print(JSON.stringify(account));
        return 0;
      case 'statement': {
        const from = isoArg(values.from, 'from');
        const to = isoArg(values.to, 'to');
        let after = 0;
        for (;;) {
          const page = ledger.statement(from, to, after, STATEMENT_MAX_LIMIT);
          for (const entry of page.transactions) print(JSON.stringify(entry));
          if (page.next === null) return 0;
          after = page.next;
        }
      }
      case 'check': {
        const problems = ledger.checkBalances();
        for (const line of problems) print(`PROBLEM ${line}`);
        print(problems.length === 0 ? 'wallet books OK' : `wallet books FAILED: ${problems.length} problems`);
        return problems.length === 0 ? 0 : 1;
      }
      default:
        throw new CliUsageError(command === undefined ? 'no command' : `unknown command "${command}"`);
    }
  } finally {
    ledger.close();
  }
}
