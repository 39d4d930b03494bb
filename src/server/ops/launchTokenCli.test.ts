import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkLaunchToken } from '../tokens.ts';

const PORTAL_SECRET = 'Yw4Nq8Zt1Xc5Vr9Lm2Kd7Hs3Pf6Gy0Ja-cli-secret';

function launchToken(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/ops/cli.ts', 'launch-token', ...args], {
    env: { ...process.env, PORTAL_SECRET, GAME_ID: 'spincake-test' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm run ops -- launch-token', () => {
  it('prints a one-use token for GAME_ID, valid at most LAUNCH_TOKEN_MAX_SECONDS', () => {
    const made = launchToken('alice_42');
    expect(made.status, made.stderr).toBe(0);
    const token = made.stdout.trim();
    const payload = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
    expect(payload).toEqual({
      playerId: 'alice_42',
      iat: expect.any(Number),
      exp: payload.iat + 300,
      aud: 'spincake-test',
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const now = Math.floor(Date.now() / 1000);
    expect(checkLaunchToken(token, PORTAL_SECRET, now, { gameId: 'spincake-test', maxSeconds: 300 }).ok).toBe(true);
    expect(launchToken('alice_42', '3600').status).toBe(2);
  });
});
