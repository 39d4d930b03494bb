import type { SalesWindow } from '../contract/api.ts';
import type { ServerConfig } from './config.ts';
import type { SalesControl } from './store/types.ts';

/**
 * Article 1's sales window: the configured dates, unless the operator has opened or closed
 * sales by hand (`npm run ops -- sales`, kept in the database and polled by every
 * instance), unless test mode overrides both.
 */
export class Sales {
  private override: { open: boolean; message: string | null } | null = null;
  private control: SalesControl | null = null;

  constructor(private readonly config: ServerConfig['sales']) {}

  setOverride(open: boolean, message: string | null): void {
    this.override = { open, message };
  }

  /** The operator's setting as last read from the database (null: the configured dates decide). */
  setControl(control: SalesControl | null): void {
    this.control = control;
  }

  window(now: Date): SalesWindow {
    const { opensAt, closesAt, closedMessage } = this.config;
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
    const { opensAt, closesAt } = this.config;
    return (!opensAt || now >= opensAt) && (!closesAt || now < closesAt);
  }
}
