import type { SalesWindow } from '../../contract/api.ts';
import type { ServerConfig } from '../config.ts';
import type { SalesControl } from '../store/types.ts';

/** Opening and closing dates put in place of the configured ones (test mode). */
export interface SalesDates {
  opensAt: Date | null;
  closesAt: Date | null;
}

/**
 * Article 1's sales window: the configured dates, unless the operator has opened or closed
 * sales by hand (`npm run ops -- sales`, kept in the database and polled by every
 * instance), unless test mode overrides both.
 */
export class SalesCalendar {
  private override: { open: boolean; message: string | null; dates: SalesDates | null } | null = null;
  private control: SalesControl | null = null;

  constructor(private readonly config: ServerConfig['sales']) {}

  /** `dates`: the window the players are told of, as SALES_OPENS_AT / SALES_CLOSES_AT would give it. */
  setOverride(open: boolean, message: string | null, dates: SalesDates | null = null): void {
    this.override = { open, message, dates };
  }

  /** The operator's setting as last read from the database (null: the configured dates decide). */
  setControl(control: SalesControl | null): void {
    this.control = control;
  }

  window(now: Date): SalesWindow {
    const { closedMessage } = this.config;
    const { opensAt, closesAt } = this.override?.dates ?? this.config;
    const open = this.isOpen(now);
    return {
      open,
      opensAt: opensAt?.toISOString() ?? null,
      closesAt: closesAt?.toISOString() ?? null,
      message: open ? '' : (this.override?.message ?? this.control?.message ?? closedMessage),
    };
  }

  isOpen(now: Date): boolean {
    if (this.override) return this.override.open;
    if (this.control) return this.control.mode === 'open';
    return this.scheduledOpen(now);
  }

  /** What the dates alone say (SALES_OPENS_AT / SALES_CLOSES_AT), whatever the operator set by hand. */
  scheduledOpen(now: Date): boolean {
    const { opensAt, closesAt } = this.config;
    return (!opensAt || now >= opensAt) && (!closesAt || now < closesAt);
  }
}
