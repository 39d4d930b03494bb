import type { ServerConfig } from '../config.ts';
import { openLogStorage } from './logStorage.ts';
import { LogSigningKey } from './signingKey.ts';
import { TransparencyLog } from './transparencyLog.ts';

/** The transparency log in the blocks' database, signed with the configured key (docs/fairness.md). */
export async function openTransparencyLog(config: ServerConfig): Promise<TransparencyLog> {
  const key = LogSigningKey.load(config.transparency, config.dataDir);
  const storage = await openLogStorage(config);
  try {
    return await TransparencyLog.open(storage, key, { headSeconds: config.transparency.headSeconds });
  } catch (error) {
    await storage.close();
    throw error;
  }
}
