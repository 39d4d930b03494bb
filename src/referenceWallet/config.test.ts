import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWalletConfig, WalletConfigError } from './config.ts';
import { NO_FAULTS } from './faults.ts';

const SECRET = 's'.repeat(32);

describe('loadWalletConfig', () => {
  it('has defaults for everything but the secret', () => {
    expect(loadWalletConfig({ WALLET_SECRET: SECRET }, '/srv')).toEqual({
      port: 8070,
      host: '127.0.0.1',
      keyring: { signer: { id: 'default', secret: SECRET }, keys: [{ id: 'default', secret: SECRET }] },
      dbFile: path.resolve('/srv', 'data/operator-wallet.sqlite'),
      faults: NO_FAULTS,
    });
  });

  it('reads every setting', () => {
    const config = loadWalletConfig(
      {
        WALLET_SECRET: SECRET,
        WALLET_PORT: '0',
        WALLET_HOST: '0.0.0.0',
        WALLET_DB: 'w.sqlite',
        WALLET_FAULT_SEED: '99',
        WALLET_FAULT_CALLS: 'bet, win',
        WALLET_FAULT_LATENCY_RATE: '0.5',
        WALLET_FAULT_LATENCY_MS: '50-500',
        WALLET_FAULT_ERROR_RATE: '.1',
        WALLET_FAULT_ERROR_STATUS: '500',
        WALLET_FAULT_LOST_ANSWER_RATE: '0.05',
        WALLET_FAULT_DUPLICATE_RATE: '1',
        WALLET_FAULT_REFUSE_RATE: '0.02',
        WALLET_FAULT_REFUSE_STATUS: 'PLAYER_BLOCKED',
      },
      '/srv',
    );
    expect(config).toMatchObject({ port: 0, host: '0.0.0.0', dbFile: '/srv/w.sqlite' });
    expect(config.faults).toEqual({
      seed: 99,
      calls: ['bet', 'win'],
      latency: { rate: 0.5, minMs: 50, maxMs: 500 },
      errorRate: 0.1,
      errorStatus: 500,
      lostAnswerRate: 0.05,
      duplicateRate: 1,
      refuse: { rate: 0.02, status: 'PLAYER_BLOCKED' },
    });
    expect(loadWalletConfig({ WALLET_SECRET: SECRET, WALLET_FAULT_LATENCY_MS: '250' }).faults.latency).toEqual({
      rate: 0,
      minMs: 250,
      maxMs: 250,
    });
  });

  it('reads a keyring from WALLET_SECRETS: the first key signs, every key verifies', () => {
    const older = 'o'.repeat(40);
    const { keyring } = loadWalletConfig({ WALLET_SECRETS: `2026-12:${SECRET}, 2026-06:${older}` });
    expect(keyring.signer).toEqual({ id: '2026-12', secret: SECRET });
    expect(keyring.keys).toEqual([
      { id: '2026-12', secret: SECRET },
      { id: '2026-06', secret: older },
    ]);
    // A secret may hold a colon: the id ends at the first.
    expect(loadWalletConfig({ WALLET_SECRETS: `k:${SECRET}:x` }).keyring.signer.secret).toBe(`${SECRET}:x`);
    const refused: [Record<string, string>, RegExp][] = [
      [{ WALLET_SECRETS: `a:${SECRET}`, WALLET_SECRET: SECRET }, /both set: keep one/],
      [{ WALLET_SECRETS: SECRET }, /WALLET_SECRETS: entry 1 is not id:secret/],
      [{ WALLET_SECRETS: `a:${SECRET},a:${older}` }, /key id "a" is listed twice/],
      [
        { WALLET_SECRETS: `a:${SECRET},b:short` },
        /WALLET_SECRETS: the secret of key "b" must be at least 32 characters/,
      ],
      [{ WALLET_SECRETS: `a b:${SECRET}` }, /key id "a b" must be 1–32 characters/],
    ];
    for (const [env, message] of refused) {
      expect(() => loadWalletConfig(env), JSON.stringify(env)).toThrow(WalletConfigError);
      expect(() => loadWalletConfig(env)).toThrow(message);
    }
  });

  it('refuses bad settings with a reason that names them', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ WALLET_SECRET: ' ' }, /WALLET_SECRET is required/],
      [{ WALLET_SECRET: 'short' }, /at least 32 characters/],
      [{ WALLET_PORT: '70000' }, /WALLET_PORT must be between 0 and 65535/],
      [{ WALLET_PORT: 'http' }, /WALLET_PORT must be a whole number/],
      [{ WALLET_HOST: 'a b' }, /WALLET_HOST/],
      [{ WALLET_FAULT_ERROR_RATE: '1.5' }, /WALLET_FAULT_ERROR_RATE must be a rate from 0 to 1/],
      [{ WALLET_FAULT_LOST_ANSWER_RATE: '5%' }, /WALLET_FAULT_LOST_ANSWER_RATE/],
      [{ WALLET_FAULT_LATENCY_MS: '500-50' }, /below its start/],
      [{ WALLET_FAULT_LATENCY_MS: 'slow' }, /fixed \(250\) or a range/],
      [{ WALLET_FAULT_LATENCY_MS: '90000' }, /60000/],
      [{ WALLET_FAULT_LATENCY_RATE: '0.5' }, /give WALLET_FAULT_LATENCY_MS too/],
      [{ WALLET_FAULT_ERROR_STATUS: '404' }, /between 500 and 599/],
      [{ WALLET_FAULT_REFUSE_STATUS: 'ROLLED_BACK' }, /LIMIT_REACHED, PLAYER_BLOCKED, INSUFFICIENT_FUNDS/],
      [{ WALLET_FAULT_CALLS: 'bet,deposit' }, /"deposit" is not one of/],
      [{ WALLET_FAULT_LOST_RATE: '0.1' }, /unknown setting WALLET_FAULT_LOST_RATE/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadWalletConfig({ WALLET_SECRET: SECRET, ...env }), JSON.stringify(env)).toThrow(WalletConfigError);
      expect(() => loadWalletConfig({ WALLET_SECRET: SECRET, ...env })).toThrow(message);
    }
  });
});
