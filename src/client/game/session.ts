import type { AccountResponse } from '../../contract/api.ts';
import type { GameApi } from '../net/api.ts';
import type { ApiFailure } from '../net/http.ts';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const TOKEN_KEY = 'spincake.token';

export type Connection = { ok: true; account: AccountResponse } | { ok: false; refused: ApiFailure | null };

/**
 * The player's session: the bearer token, remembered in `storage` across reloads, and
 * the way to it — the remembered one while the server still knows it, else a new
 * session (with the portal's launch token when there is one).
 */
export class Session {
  private current: string | null = null;

  constructor(
    private readonly api: GameApi,
    private readonly storage: KeyValueStorage,
    private readonly launchToken: string | null,
  ) {}

  get token(): string | null {
    return this.current;
  }

  /**
   * The player's account, opening a session first if needed. Not ok when the network or
   * the server failed; `refused` then holds the server's refusal of a new session.
   */
  async connect(): Promise<Connection> {
    this.current ??= this.storage.getItem(TOKEN_KEY);
    if (this.current) {
      const account = await this.api.account(this.current);
      if (account.ok) return { ok: true, account: account.data };
      if (account.kind === 'network') return { ok: false, refused: null };
      this.current = null;
    }
    const session = await this.api.openSession(this.launchToken ?? undefined);
    if (!session.ok) return { ok: false, refused: session.kind === 'server' ? session : null };
    this.current = session.data.token;
    this.storage.setItem(TOKEN_KEY, this.current);
    const account = await this.api.account(this.current);
    return account.ok ? { ok: true, account: account.data } : { ok: false, refused: null };
  }
}
