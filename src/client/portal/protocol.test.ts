import { describe, expect, it } from 'vitest';
import {
  GAME_SOURCE,
  PORTAL_SOURCE,
  gameEvent,
  isAllowedOrigin,
  originOf,
  parsePortalCommand,
  targetOrigins,
} from './protocol.ts';

const cmd = (type: unknown, payload?: unknown) => ({ source: PORTAL_SOURCE, type, payload });

describe('parsePortalCommand', () => {
  it('reads the four commands', () => {
    expect(parsePortalCommand(cmd('mute', { muted: true }))).toEqual({ type: 'mute', muted: true });
    expect(parsePortalCommand(cmd('mute', { muted: false }))).toEqual({ type: 'mute', muted: false });
    expect(parsePortalCommand(cmd('pause'))).toEqual({ type: 'pause' });
    expect(parsePortalCommand(cmd('resume', {}))).toEqual({ type: 'resume' });
    expect(parsePortalCommand(cmd('resize', { width: 800, height: 450 }))).toEqual({
      type: 'resize',
      width: 800,
      height: 450,
    });
  });

  it.each([
    ['no data', undefined],
    ['a string', 'mute'],
    ['an array', ['mute']],
    ['the game’s own source', { source: GAME_SOURCE, type: 'mute', payload: { muted: true } }],
    ['no source', { type: 'pause' }],
    ['an unknown type', cmd('navigate', { url: 'https://evil.example' })],
    ['a type that is not a string', cmd(1)],
    ['mute without muted', cmd('mute', {})],
    ['mute with "true"', cmd('mute', { muted: 'true' })],
    ['a payload that is not an object', cmd('pause', 'now')],
    ['resize with a fraction', cmd('resize', { width: 800.5, height: 450 })],
    ['resize with zero', cmd('resize', { width: 0, height: 450 })],
    ['resize too big', cmd('resize', { width: 800, height: 10_001 })],
    ['resize with a string', cmd('resize', { width: '800', height: 450 })],
    ['resize without height', cmd('resize', { width: 800 })],
  ])('refuses %s', (_label, data) => {
    expect(parsePortalCommand(data)).toBeNull();
  });
});

describe('origins', () => {
  it('matches exactly, never the opaque origin', () => {
    const allowed = ['https://portal.example', 'http://localhost:8090'];
    expect(isAllowedOrigin('https://portal.example', allowed)).toBe(true);
    expect(isAllowedOrigin('http://localhost:8090', allowed)).toBe(true);
    expect(isAllowedOrigin('https://portal.example.evil', allowed)).toBe(false);
    expect(isAllowedOrigin('https://evil.portal.example', allowed)).toBe(false);
    expect(isAllowedOrigin('http://portal.example', allowed)).toBe(false);
    expect(isAllowedOrigin('http://localhost:8091', allowed)).toBe(false);
    expect(isAllowedOrigin('null', [...allowed, 'null'])).toBe(false);
  });

  it('reads an origin from a URL', () => {
    expect(originOf('https://portal.example/games/spincake?x=1#y')).toBe('https://portal.example');
    expect(originOf('http://localhost:8090/')).toBe('http://localhost:8090');
    expect(originOf('')).toBeNull();
    expect(originOf(null)).toBeNull();
    expect(originOf('not a url')).toBeNull();
    expect(originOf('data:text/html,hi')).toBeNull();
  });

  it('posts to the known parent only if it is allowed, else to every allowed origin, never *', () => {
    const allowed = ['https://a.example', 'https://b.example'];
    expect(targetOrigins(allowed, 'https://b.example')).toEqual(['https://b.example']);
    expect(targetOrigins(allowed, 'https://evil.example')).toEqual([]);
    expect(targetOrigins(allowed, null)).toEqual(allowed);
    expect(targetOrigins(['*', 'null'], null)).toEqual([]);
    expect(targetOrigins([], null)).toEqual([]);
  });
});

describe('gameEvent', () => {
  it('wraps a payload in the envelope', () => {
    expect(gameEvent('roundEnded', { playId: 'p', winCents: 500, balanceCents: 10_400 })).toEqual({
      source: 'spincake',
      version: 1,
      type: 'roundEnded',
      payload: { playId: 'p', winCents: 500, balanceCents: 10_400 },
    });
  });
});
