import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { tempDataDir } from '../testing/harness.ts';
import { unsafeSettings } from './profile.ts';

const STRONG = 'r7Vd1qXk9pL2mZ8sW4tY6uB3nC5hJ0gF+Ae/Qo1Kx2M=';

/** A production setup with nothing wrong: each test breaks one thing. */
function safeEnv(dataDir: string): Record<string, string> {
  return {
    SPINCAKE_PROFILE: 'production',
    HOST: '10.0.0.4',
    DATA_DIR: dataDir,
    PORTAL_SECRET: STRONG,
    PORTAL_ORIGINS: 'https://portal.example',
    SESSION_KEYS: 'k1:Hq3tZ0x9Lw7Rb2Nc5Vm8Pk1Sd4Fg6Jh0Ay3Ue7Io9Tr=',
    WALLET_URL: 'https://wallet.operator.example',
    WALLET_SECRET: 'Wn4Bq8Zt1Xc5Vr9Lm2Kd7Hs3Pf6Gy0Ja-Te8Ui4Ob2',
  };
}

describe('the production profile', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  const fresh = () => {
    dir = tempDataDir();
    fs.chmodSync(dir, 0o700);
    return dir;
  };

  it('finds nothing wrong with a safe setup', () => {
    expect(unsafeSettings(loadConfig(safeEnv(fresh())))).toEqual([]);
  });

  it('names each unsafe setting, one line each', () => {
    const dataDir = fresh();
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, 'blocks'));
    fs.writeFileSync(path.join(dataDir, 'blocks', 'b.block'), 'units', { mode: 0o644 });
    const env = safeEnv(dataDir);
    delete env.HOST;
    const problems = unsafeSettings(
      loadConfig({
        ...env,
        SPINCAKE_TEST_MODE: '1',
        WALLET_URL: 'http://wallet.operator.example',
        PORTAL_ORIGINS: 'https://portal.example, http://other.example',
        PORTAL_SECRET: 'a'.repeat(32),
        WALLET_SECRET: 'changeme'.repeat(4),
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^SPINCAKE_TEST_MODE is on/),
      expect.stringMatching(/^HOST is not set/),
      expect.stringMatching(/^WALLET_URL http:\/\/wallet\.operator\.example is http:\/\/ to another machine/),
      expect.stringMatching(/^PORTAL_ORIGINS: http:\/\/other\.example is not https/),
      expect.stringMatching(/^PORTAL_SECRET is weak: repetitive/),
      expect.stringMatching(/^WALLET_SECRET is weak: repetitive/),
      expect.stringMatching(/^DATA_DIR .* is open to others/),
      expect.stringMatching(/^1 file\(s\) in DATA_DIR can be read by others \(blocks\/b\.block\)/),
    ]);
  });

  it('allows http:// to the wallet on this machine; wants session keys of its own', () => {
    const env = { ...safeEnv(fresh()), WALLET_URL: 'http://127.0.0.1:8091' };
    expect(unsafeSettings(loadConfig(env))).toEqual([]);
    delete (env as Record<string, string>).SESSION_KEYS;
    expect(unsafeSettings(loadConfig(env))).toEqual([expect.stringMatching(/^SESSION_KEYS .* is not set/)]);
  });

  it('judges each session key', () => {
    const env = {
      ...safeEnv(fresh()),
      SESSION_KEYS: `new:${Buffer.alloc(32, 1).toString('base64')},old:${Buffer.from('Hq3tZ0x9Lw7Rb2Nc5Vm8Pk1Sd4Fg6Jh0').toString('base64')}`,
    };
    expect(unsafeSettings(loadConfig(env))).toEqual([expect.stringMatching(/^SESSION_KEYS key "new" is weak/)]);
  });

  it('refuses to start, exit code 1, one line per reason, before it touches the data', () => {
    const dataDir = fresh();
    const env = { ...safeEnv(dataDir), SPINCAKE_TEST_MODE: '1', PORTAL_SECRET: 'a'.repeat(32) };
    const run = (extra: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: { ...process.env, ...env, PORT: '0', ...extra },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const refused = run({});
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^spincake: refused \(SPINCAKE_PROFILE=production\): SPINCAKE_TEST_MODE is on/),
      expect.stringMatching(/^spincake: refused \(SPINCAKE_PROFILE=production\): PORTAL_SECRET is weak/),
    ]);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('profiles in the configuration', () => {
  it('is demo unless told; only production or demo', () => {
    expect(loadConfig({}).profile).toBe('demo');
    expect(loadConfig({ SPINCAKE_PROFILE: 'production' }).profile).toBe('production');
    expect(() => loadConfig({ SPINCAKE_PROFILE: 'staging' })).toThrow(ConfigError);
  });

  it('takes PORTAL_ORIGINS as https, or http://localhost in the demo profile', () => {
    expect(loadConfig({ PORTAL_ORIGINS: 'http://localhost:8090, http://127.0.0.1:9000' }).portalOrigins).toEqual([
      'http://localhost:8090',
      'http://127.0.0.1:9000',
    ]);
    expect(() => loadConfig({ PORTAL_ORIGINS: 'http://portal.example' })).toThrow(/must be https:\/\//);
  });
});
