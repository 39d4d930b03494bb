import type { StoreDialect } from './dialect.ts';
import type { SalesControlBook } from './parts.ts';
import type { SalesControl } from './types.ts';

/** The operator's setting of the sales window (`npm run ops -- sales`), one row shared by every instance. */
export function createSalesControlBook(db: StoreDialect): SalesControlBook {
  return {
    async salesControl(): Promise<SalesControl | null> {
      const [row] = await db.all<{ mode: 'open' | 'closed'; message: string | null; set_at: string }>(
        'SELECT mode, message, set_at FROM sales_control WHERE id = 1',
      );
      return db.afterDurable(row ? { mode: row.mode, message: row.message, setAt: row.set_at } : null);
    },

    async setSalesControl(control: Omit<SalesControl, 'setAt'> | null, now: Date): Promise<void> {
      if (control === null) {
        await db.write('DELETE FROM sales_control', []);
        return;
      }
      await db.write(
        `INSERT INTO sales_control (id, mode, message, set_at) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, message = excluded.message, set_at = excluded.set_at`,
        [control.mode, control.message, now.toISOString()],
      );
    },
  };
}
