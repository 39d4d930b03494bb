import {
  gameEvent,
  isAllowedOrigin,
  parsePortalCommand,
  targetOrigins,
  type GameEvent,
  type GameEventPayloads,
  type GameEventType,
  type PortalCommand,
} from './protocol.ts';

/**
 * The postMessage bridge between the game (in an iframe) and the portal page around it.
 *
 * Rules (docs/portal.md):
 * - it exists only when the game is framed (`window.parent !== window`);
 * - it posts only to the configured portal origins, never to '*';
 * - it acts only on messages whose origin is a configured portal origin AND whose
 *   source is the parent window itself (not a sibling frame or a popup of that origin);
 * - until `open()` (the game is ready), events wait in a short queue, so the portal
 *   sees `ready` first and then what happened during start-up; `error` alone goes out
 *   at once, because a game that cannot start (an expired launch token) never gets ready.
 *
 * The window is injected (a narrow interface), so the rules are unit-tested without a DOM.
 */

export interface MessageTargetLike {
  postMessage(message: unknown, targetOrigin: string): void;
}

export interface MessageEventLike {
  readonly data: unknown;
  readonly origin: string;
  readonly source: unknown;
}

export interface BridgeWindow {
  readonly parent: MessageTargetLike | null;
  addEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEventLike) => void): void;
}

export interface BridgeOptions {
  window: BridgeWindow;
  /** The configured portal origins (the server's PORTAL_ORIGINS). */
  allowedOrigins: readonly string[];
  /** The parent's origin when the browser tells it (ancestorOrigins, referrer); null if unknown. */
  parentOrigin: string | null;
  /** Acts on a command the portal sent; called only for allowed, well-formed messages. */
  onCommand(command: PortalCommand): void;
}

/** Events kept before `open()`; start-up produces a handful, so this is never reached in practice. */
export const MAX_QUEUED_EVENTS = 32;

export class PortalBridge {
  private targets: string[];
  private queue: GameEvent[] = [];
  private opened = false;
  private closed = false;
  private readonly listener = (event: MessageEventLike) => this.receive(event);

  private constructor(
    private readonly options: BridgeOptions & { window: BridgeWindow & { parent: MessageTargetLike } },
  ) {
    this.targets = targetOrigins(options.allowedOrigins, options.parentOrigin);
    options.window.addEventListener('message', this.listener);
  }

  /** A bridge when the game is framed and some portal origin is configured; null otherwise. */
  static create(options: BridgeOptions): PortalBridge | null {
    const { window: win } = options;
    const parent = win.parent;
    if (parent === null || parent === (win as unknown)) return null;
    if (targetOrigins(options.allowedOrigins, options.parentOrigin).length === 0) return null;
    return new PortalBridge({ ...options, window: { ...bind(win), parent } });
  }

  /** Posted to the portal; queued until `open()`, except errors. */
  send<T extends GameEventType>(type: T, payload: GameEventPayloads[T]): void {
    if (this.closed) return;
    const event = gameEvent(type, payload);
    if (!this.opened && type !== 'error') {
      if (this.queue.length >= MAX_QUEUED_EVENTS) this.queue.shift();
      this.queue.push(event);
      return;
    }
    this.post(event);
  }

  /** The game is playable: `ready` goes out, then whatever start-up queued, in order. */
  open(ready: GameEventPayloads['ready']): void {
    if (this.opened || this.closed) return;
    this.opened = true;
    this.post(gameEvent('ready', ready));
    for (const event of this.queue.splice(0)) this.post(event);
  }

  close(): void {
    this.closed = true;
    this.queue = [];
    this.options.window.removeEventListener('message', this.listener);
  }

  private post(event: GameEvent): void {
    for (const origin of this.targets) this.options.window.parent.postMessage(event, origin);
  }

  private receive(event: MessageEventLike): void {
    if (this.closed) return;
    if (event.source !== this.options.window.parent) return;
    if (!isAllowedOrigin(event.origin, this.options.allowedOrigins)) return;
    const command = parsePortalCommand(event.data);
    if (!command) return;
    // The parent has proved its origin: from now on, post to it alone.
    this.targets = [event.origin];
    this.options.onCommand(command);
  }
}

/** Keeps `this` right when the real window's methods are called through the copy. */
function bind(win: BridgeWindow): Pick<BridgeWindow, 'addEventListener' | 'removeEventListener'> {
  return {
    addEventListener: (type, listener) => win.addEventListener(type, listener),
    removeEventListener: (type, listener) => win.removeEventListener(type, listener),
  };
}
