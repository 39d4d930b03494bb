import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

const URL = 'https://wallet.operator.example/fdj';
const NEW = 'n'.repeat(20) + 'the-new-key-0123456789';
const OLD = 'o'.repeat(20) + 'the-old-key-0123456789';

describe('the wallet settings of the game server', () => {
  it('read a keyring from WALLET_SECRETS: the first key signs, every key verifies', () => {
    const wallet = loadConfig({ WALLET_URL: URL, WALLET_SECRETS: `2026-12:${NEW},2026-06:${OLD}` }).wallet!;
    expect(wallet.keyring.signer).toEqual({ id: '2026-12', secret: NEW });
    expect(wallet.keyring.keys.map((key) => key.id)).toEqual(['2026-12', '2026-06']);
    expect(wallet).toMatchObject({ url: URL, timeoutMs: 2000, connections: 64 });
  });

  it('take WALLET_SECRET alone as the key `default`, and cap the connections as told', () => {
    const wallet = loadConfig({ WALLET_URL: URL, WALLET_SECRET: NEW, WALLET_CONNECTIONS: '8' }).wallet!;
    expect(wallet.keyring).toEqual({ signer: { id: 'default', secret: NEW }, keys: [{ id: 'default', secret: NEW }] });
    expect(wallet.connections).toBe(8);
    expect(loadConfig({}).wallet).toBeNull();
  });

  it('refuse what breaks the rules, with a reason that names the setting', () => {
    const refused: [Record<string, string>, RegExp][] = [
      [{ WALLET_URL: URL, WALLET_SECRET: NEW, WALLET_SECRETS: `a:${OLD}` }, /both set: keep one/],
      [{ WALLET_URL: URL }, /neither WALLET_SECRETS nor WALLET_SECRET/],
      [{ WALLET_SECRETS: `a:${NEW}` }, /WALLET_URL is not/],
      [{ WALLET_URL: URL, WALLET_SECRET: 'short' }, /WALLET_SECRET must be at least 32 characters/],
      [{ WALLET_URL: URL, WALLET_SECRETS: `a:${NEW},b:short` }, /the secret of key "b" must be at least 32/],
      [{ WALLET_URL: URL, WALLET_SECRETS: `a:${NEW},a:${OLD}` }, /key id "a" is listed twice/],
      [{ WALLET_URL: URL, WALLET_SECRETS: NEW }, /entry 1 is not id:secret/],
      [
        { WALLET_URL: URL, WALLET_SECRET: NEW, WALLET_CONNECTIONS: '0' },
        /WALLET_CONNECTIONS must be between 1 and 1024/,
      ],
    ];
    for (const [env, reason] of refused) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(reason);
    }
  });
});
