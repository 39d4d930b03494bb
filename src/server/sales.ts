import type { SalesWindow } from '../contract/api.ts';
import type { ServerConfig } from './config.ts';

/** The configured sales window, with an override that only test mode can set. */
export class Sales {
  private override: { open: boolean; message: string | null } | null = null;

  constructor(private readonly config: ServerConfig['sales']) {}

  setOverride(open: boolean, message: string | null): void {
    this.override = { open, message };
  }

  window(now: Date): SalesWindow {
    const { opensAt, closesAt, closedMessage } = this.config;
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
