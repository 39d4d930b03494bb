import type { SalesWindow } from '../contract/api.ts';
import type { ServerConfig } from './config.ts';

/** Opening and closing dates put in place of the configured ones (test mode). */
export interface SalesDates {
  opensAt: Date | null;
  closesAt: Date | null;
}

/** The configured sales window, with an override that only test mode can set. */
export class Sales {
  private override: { open: boolean; message: string | null; dates: SalesDates | null } | null = null;

  constructor(private readonly config: ServerConfig['sales']) {}

  /** `dates`: the window the players are told of, as SALES_OPENS_AT / SALES_CLOSES_AT would give it. */
  setOverride(open: boolean, message: string | null, dates: SalesDates | null = null): void {
    this.override = { open, message, dates };
  }

  window(now: Date): SalesWindow {
    const { closedMessage } = this.config;
    const { opensAt, closesAt } = this.override?.dates ?? this.config;
    const open = this.isOpen(now);
    return {
      open,
      opensAt: opensAt?.toISOString() ?? null,
      closesAt: closesAt?.toISOString() ?? null,
      message: open ? '' : (this.override?.message ?? closedMessage),
    };
  }

  isOpen(now: Date): boolean {
    if (this.override) return this.override.open;
    const { opensAt, closesAt } = this.config;
    return (!opensAt || now >= opensAt) && (!closesAt || now < closesAt);
  }
}
