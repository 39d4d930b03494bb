import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../../emission/index.ts';
import type { LedgerAuditReport } from './ledgerAudit.ts';

/** The last `npm run audit:ledger`, as it left it beside the data for the instances to export. */
export interface LedgerAuditRecord {
  /** The database audited: the metrics' `database` label. */
  database: 'sqlite' | 'postgresql';
  ok: boolean;
  /** Problems found (the report lists at most 50, then one line for the rest). */
  problems: number;
  plays: number;
  finishedAt: string;
  seconds: number;
}

export const LEDGER_AUDIT_FILE_NAME = 'ledger-audit.json';

export function ledgerAuditRecordPath(dataDir: string): string {
  return path.join(dataDir, LEDGER_AUDIT_FILE_NAME);
}

/** Kept in DATA_DIR, replaced atomically (a scrape never reads half of it). */
export function writeLedgerAuditRecord(
  dataDir: string,
  database: LedgerAuditRecord['database'],
  report: Pick<LedgerAuditReport, 'ok' | 'problems' | 'plays' | 'blocks' | 'players'>,
  startedAt: Date,
  finishedAt: Date,
): LedgerAuditRecord {
  const record: LedgerAuditRecord = {
    database,
    ok: report.ok,
    problems: report.problems.length,
    plays: report.plays,
    finishedAt: finishedAt.toISOString(),
    seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
  };
  fs.mkdirSync(dataDir, { recursive: true });
  writeFileAtomically(ledgerAuditRecordPath(dataDir), (fd) => fs.writeSync(fd, `${JSON.stringify(record)}\n`));
  return record;
}

/** The last record, or null when the audit never ran here (or left something unreadable). */
export function readLedgerAuditRecord(dataDir: string): LedgerAuditRecord | null {
  let text: string;
  try {
    text = fs.readFileSync(ledgerAuditRecordPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<LedgerAuditRecord>;
    const finished = typeof value.finishedAt === 'string' ? Date.parse(value.finishedAt) : NaN;
    if (typeof value.ok !== 'boolean' || Number.isNaN(finished)) return null;
    return {
      database: value.database === 'postgresql' ? 'postgresql' : 'sqlite',
      ok: value.ok,
      problems: Number(value.problems ?? 0),
      plays: Number(value.plays ?? 0),
      finishedAt: value.finishedAt!,
      seconds: Number(value.seconds ?? 0),
    };
  } catch {
    return null;
  }
}
