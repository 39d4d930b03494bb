import { describe, expect, it } from 'vitest';
import { MAX_QUEUED_EVENTS, PortalBridge, type MessageEventLike } from './bridge.ts';
import { PORTAL_SOURCE, type PortalCommand } from './protocol.ts';

const PORTAL = 'https://portal.example';

/** A window and its parent, recording what is posted; `deliver` plays the browser's part. */
function frame(framed = true) {
  const posted: { message: unknown; origin: string }[] = [];
  const listeners = new Set<(event: MessageEventLike) => void>();
  const parent = { postMessage: (message: unknown, origin: string) => void posted.push({ message, origin }) };
  const win = {
    parent: parent as typeof parent | null,
    addEventListener: (_type: 'message', l: (event: MessageEventLike) => void) => void listeners.add(l),
    removeEventListener: (_type: 'message', l: (event: MessageEventLike) => void) => void listeners.delete(l),
  };
  if (!framed) win.parent = win as unknown as typeof parent;
  const deliver = (data: unknown, origin: string, source: unknown = parent) => {
    for (const l of listeners) l({ data, origin, source });
  };
  return { win, parent, posted, listeners, deliver };
}

function bridge(f: ReturnType<typeof frame>, allowed = [PORTAL], parentOrigin: string | null = PORTAL) {
  const commands: PortalCommand[] = [];
  const b = PortalBridge.create({
    window: f.win,
    allowedOrigins: allowed,
    parentOrigin,
    onCommand: (c) => void commands.push(c),
  });
  return { b, commands };
}

const mute = { source: PORTAL_SOURCE, type: 'mute', payload: { muted: true } };

describe('PortalBridge', () => {
  it('does not exist outside a frame, or with no portal origin configured, or for a foreign parent', () => {
    expect(bridge(frame(false)).b).toBeNull();
    expect(bridge(frame(), []).b).toBeNull();
    expect(bridge(frame(), [PORTAL], 'https://evil.example').b).toBeNull();
  });

  it('sends ready first, then what start-up queued, to the portal origin only', () => {
    const f = frame();
    const { b } = bridge(f);
    b!.send('balanceChanged', { balanceCents: 10_000 });
    expect(f.posted).toEqual([]);
    b!.open({ muted: false });
    b!.send('roundStarted', { playId: 'p1', stakeCents: 200, resumed: false });
    expect(f.posted.map((p) => p.origin)).toEqual([PORTAL, PORTAL, PORTAL]);
    expect(f.posted.map((p) => (p.message as { type: string }).type)).toEqual([
      'ready',
      'balanceChanged',
      'roundStarted',
    ]);
    expect(f.posted[0]!.message).toEqual({ source: 'spincake', version: 1, type: 'ready', payload: { muted: false } });
  });

  it('sends an error at once, even before ready', () => {
    const f = frame();
    const { b } = bridge(f);
    b!.send('error', { code: 'NO_SESSION', message: 'the launch token has expired' });
    expect(f.posted).toEqual([
      {
        origin: PORTAL,
        message: {
          source: 'spincake',
          version: 1,
          type: 'error',
          payload: { code: 'NO_SESSION', message: 'the launch token has expired' },
        },
      },
    ]);
  });

  it('keeps only the last events if start-up queues too many', () => {
    const f = frame();
    const { b } = bridge(f);
    for (let i = 0; i < MAX_QUEUED_EVENTS + 5; i++) b!.send('balanceChanged', { balanceCents: i });
    b!.open({ muted: true });
    expect(f.posted).toHaveLength(MAX_QUEUED_EVENTS + 1);
    expect((f.posted[1]!.message as { payload: unknown }).payload).toEqual({ balanceCents: 5 });
  });

  it('with the parent unknown, posts to each allowed origin until the parent speaks, then to it alone', () => {
    const f = frame();
    const other = 'https://other.example';
    const { b, commands } = bridge(f, [PORTAL, other], null);
    b!.open({ muted: false });
    expect(f.posted.map((p) => p.origin)).toEqual([PORTAL, other]);
    f.deliver(mute, other);
    expect(commands).toEqual([{ type: 'mute', muted: true }]);
    f.posted.length = 0;
    b!.send('balanceChanged', { balanceCents: 1 });
    expect(f.posted.map((p) => p.origin)).toEqual([other]);
    expect(f.posted.some((p) => p.origin === '*')).toBe(false);
  });

  it('acts on well-formed commands from the parent at an allowed origin', () => {
    const f = frame();
    const { commands } = bridge(f);
    f.deliver(mute, PORTAL);
    f.deliver({ source: PORTAL_SOURCE, type: 'pause' }, PORTAL);
    f.deliver({ source: PORTAL_SOURCE, type: 'resize', payload: { width: 640, height: 360 } }, PORTAL);
    expect(commands).toEqual([
      { type: 'mute', muted: true },
      { type: 'pause' },
      { type: 'resize', width: 640, height: 360 },
    ]);
  });

  it('ignores messages from another origin, from another window of the portal origin, and malformed ones', () => {
    const f = frame();
    const { b, commands } = bridge(f);
    f.deliver(mute, 'https://evil.example');
    f.deliver(mute, 'https://portal.example.evil.example');
    f.deliver(mute, 'null');
    f.deliver(mute, PORTAL, { postMessage: () => undefined });
    f.deliver(mute, PORTAL, null);
    f.deliver({ ...mute, payload: { muted: 'yes' } }, PORTAL);
    f.deliver({ source: 'spincake', type: 'mute', payload: { muted: true } }, PORTAL);
    expect(commands).toEqual([]);
    // Ignored means not even answered, and the target origin is not learnt from them.
    b!.open({ muted: false });
    expect(f.posted.map((p) => p.origin)).toEqual([PORTAL]);
  });

  it('stops listening and sending once closed', () => {
    const f = frame();
    const { b, commands } = bridge(f);
    b!.open({ muted: false });
    b!.close();
    expect(f.listeners.size).toBe(0);
    b!.send('balanceChanged', { balanceCents: 1 });
    f.deliver(mute, PORTAL);
    expect(f.posted).toHaveLength(1);
    expect(commands).toEqual([]);
  });
});
