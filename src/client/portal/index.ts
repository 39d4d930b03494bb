import type { GameApi } from '../net/api.ts';
import { PortalBridge } from './bridge.ts';
import { fetchClientConfig } from './clientConfig.ts';
import { BalanceEvents, ErrorEvents, RoundEvents, type Emit, type RoundLike } from './gameEvents.ts';
import { launchScopedStorage } from './launch.ts';
import { createPageEffects } from './pageEffects.ts';
import { originOf, type GameEventPayloads, type GameEventType } from './protocol.ts';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What the portal may change in the running game. */
export interface PortalGame {
  audio: { readonly muted: boolean };
  /** The game's own mute switch (the sound button's action), so the button follows. */
  toggleMute(): void;
  /** The element the table is laid out in (#app). */
  host: HTMLElement;
}

/**
 * The game's side of the portal embedding, in one object for main.ts: it scopes the
 * remembered session to the page's launch token, watches the API, the shown balance
 * and the round for the bridge's events, and — only when the game is framed — opens the
 * postMessage bridge to the configured portal origins. Unframed, it only scopes the session.
 */
export class PortalLink {
  private bridge: PortalBridge | null = null;
  /** Events from before the bridge exists (the config is still on its way). */
  private early: { type: GameEventType; payload: GameEventPayloads[GameEventType] }[] = [];
  private readonly framed: boolean;
  private readonly emit: Emit;
  private readonly rounds: RoundEvents;
  private readonly balance: BalanceEvents;
  private readonly errors: ErrorEvents;
  private connected: Promise<void> | null = null;
  private game: PortalGame | null = null;
  /** Framed, but no bridge could be opened (no config, or a parent that is no portal). */
  private silent = false;

  constructor(
    /** The page's launch token (PageOptions), or null. */
    readonly launchToken: string | null,
    private readonly win: Window = window,
  ) {
    this.framed = win.parent !== win;
    this.emit = (type, payload) => {
      if (!this.framed || this.silent) return;
      if (this.bridge) this.bridge.send(type, payload);
      else if (this.connected) this.early.push({ type, payload });
    };
    this.rounds = new RoundEvents(this.emit);
    this.balance = new BalanceEvents(this.emit);
    this.errors = new ErrorEvents(this.emit);
  }

  /** Whether the game runs in a portal's frame (where a deposit page can be asked for). */
  get embedded(): boolean {
    return this.framed;
  }

  /** Asks the portal for its deposit page (`deposit`, docs/portal.md). */
  requestDeposit(payload: GameEventPayloads['deposit']): void {
    this.emit('deposit', payload);
  }

  /** The storage for the controller's remembered session (see launchScopedStorage). */
  storage(storage: KeyValueStorage): KeyValueStorage {
    return launchScopedStorage(storage, this.launchToken);
  }

  /** The same API, reporting failed sessions and purchases as `error` events. */
  watchApi(api: GameApi): GameApi {
    return {
      ...api,
      openSession: async (launchToken) => this.report(await api.openSession(launchToken)),
      play: async (token, stakeCents, playId) => this.report(await api.play(token, stakeCents, playId)),
    };
  }

  /** The same controls, reporting each balance they show as `balanceChanged`. */
  watchControls<T extends { setBalance(cents: number | null, pending?: boolean): void }>(controls: T): T {
    return new Proxy(controls, {
      get: (target, key) => {
        if (key === 'setBalance') {
          return (cents: number | null, pending?: boolean) => {
            target.setBalance(cents, pending);
            // A figure held for a pending purchase is no balance the server gave: not told.
            if (!pending) this.balance.shown(cents);
          };
        }
        // Read from the target itself: its getters may use private fields a proxy lacks.
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** To be told every round state (the controller's onChange). */
  roundChanged(state: RoundLike): void {
    this.rounds.changed(state);
  }

  /** Starts listening to the portal (call before the game starts, so start-up errors reach it). */
  connect(game: PortalGame): Promise<void> {
    this.game = game;
    if (!this.framed) return Promise.resolve();
    this.connected ??= this.openBridge(game);
    return this.connected;
  }

  /** The game is playable: `ready`, then the events of start-up (after `connect`). */
  async ready(): Promise<void> {
    if (!this.connected || !this.game) return;
    await this.connected;
    this.bridge?.open({ muted: this.game.audio.muted });
  }

  private async openBridge(game: PortalGame): Promise<void> {
    const config = await fetchClientConfig();
    if (!config) {
      console.warn('SPINCAKE: no client configuration from the server; the portal bridge stays closed');
      this.silent = true;
      this.early = [];
      return;
    }
    const effects = createPageEffects(game.host);
    const ancestor = this.win.location.ancestorOrigins?.[0] ?? null;
    this.bridge = PortalBridge.create({
      window: this.win,
      allowedOrigins: config.portalOrigins,
      parentOrigin: ancestor ?? originOf(this.win.document.referrer),
      onCommand: (command) => {
        if (command.type === 'mute') {
          if (game.audio.muted !== command.muted) game.toggleMute();
        } else if (command.type === 'pause') effects.pause();
        else if (command.type === 'resume') effects.resume();
        else effects.resize(command.width, command.height);
      },
    });
    if (!this.bridge) this.silent = true;
    for (const { type, payload } of this.early.splice(0)) this.bridge?.send(type, payload);
  }

  private report<R extends { ok: boolean }>(result: R): R {
    this.errors.outcome(result as Parameters<ErrorEvents['outcome']>[0]);
    return result;
  }
}
