import type { AppExtension } from '../http/context.ts';
import { withFixtures, type Fixtures, type TestModeStore } from './fixtures.ts';
import { registerTestRoutes } from './routes.ts';

/**
 * Test mode (SPINCAKE_TEST_MODE=1), plugged into the app from outside: the /api/test/*
 * routes, and the store decorator that sells a player's fixture unit. Only main.ts (a
 * dynamic import, when the setting is on) and the test harness ever load this room.
 */
export function testModeExtension(): AppExtension {
  const fixtures: Fixtures = new Map();
  // The decorated store, which the routes' context holds too (wrapStore runs before register).
  let store: TestModeStore | null = null;
  return {
    wrapStore: (opened) => (store = withFixtures(opened, fixtures)),
    register: (app, ctx) => registerTestRoutes(app, { ...ctx, store: store! }, fixtures),
  };
}
