import fs from 'node:fs';
import path from 'node:path';
import { isLoopbackHost, type ServerConfig } from '../config.ts';
import { openToOthers } from '../dataFiles.ts';
import { parseSessionKeys } from '../sessions/sessionKeys.ts';
import { judgeSecret } from './secretStrength.ts';

/**
 * What the production profile refuses to start with, one line each (docs/security.md, the
 * production checklist). The demo profile (what `npm start` runs) starts anyway and prints
 * the same lines as warnings.
 */
export function unsafeSettings(config: ServerConfig): string[] {
  const problems: string[] = [];
  if (config.testMode) problems.push('SPINCAKE_TEST_MODE is on: /api/test/* can choose units, balances and sales');
  if (!config.hostExplicit) problems.push('HOST is not set: say which address to listen on (default 0.0.0.0)');
  if (config.wallet && isClearOffMachine(config.wallet.url)) {
    problems.push(`WALLET_URL ${config.wallet.url} is http:// to another machine: use https://`);
  }
  for (const origin of config.portalOrigins) {
    if (origin.startsWith('http:')) problems.push(`PORTAL_ORIGINS: ${origin} is not https://`);
  }
  for (const { name, value } of configuredSecrets(config)) {
    const { weakness } = judgeSecret(value);
    if (weakness !== null) problems.push(`${name} is weak: ${weakness}; make one with: openssl rand -base64 32`);
  }
  const { inline, file } = config.sessionKeys;
  if (inline === null && file === null) {
    problems.push('SESSION_KEYS (or SESSION_KEYS_FILE) is not set: the demo profile makes its own in DATA_DIR');
  }
  if (file !== null && fs.existsSync(file) && openToOthers(file)) {
    problems.push(`SESSION_KEYS_FILE ${file} can be read by others: chmod 600`);
  }
  problems.push(...openDataFiles(config.dataDir));
  return problems;
}

/** http:// to anything but this machine: readable and changeable on the way. */
function isClearOffMachine(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}

/** Every shared secret of the configuration, by the setting that holds it. */
export function configuredSecrets(config: ServerConfig): { name: string; value: string }[] {
  const secrets: { name: string; value: string }[] = [];
  if (config.portalSecret !== null) secrets.push({ name: 'PORTAL_SECRET', value: config.portalSecret });
  for (const key of config.wallet?.keyring.keys ?? []) {
    secrets.push({
      name: key.id === 'default' ? 'WALLET_SECRET' : `WALLET_SECRETS key "${key.id}"`,
      value: key.secret,
    });
  }
  if (config.sessionKeys.inline !== null) {
    for (const key of parseSessionKeys(config.sessionKeys.inline, 'SESSION_KEYS')) {
      secrets.push({ name: `SESSION_KEYS key "${key.id}"`, value: key.text });
    }
  }
  return secrets;
}

/** The data directory and what is in it (blocks, commitments, databases, keys), if others may read them. */
function openDataFiles(dataDir: string): string[] {
  if (!fs.existsSync(dataDir)) return [];
  const problems: string[] = [];
  if (openToOthers(dataDir)) problems.push(`DATA_DIR ${dataDir} is open to others: chmod 700`);
  const files = [
    ...fs.readdirSync(dataDir).map((name) => path.join(dataDir, name)),
    ...listDir(path.join(dataDir, 'blocks')),
  ].filter((file) => fs.statSync(file).isFile());
  const open = files.filter(openToOthers);
  if (open.length > 0) {
    const shown = open.slice(0, 3).map((f) => path.relative(dataDir, f));
    problems.push(
      `${open.length} file(s) in DATA_DIR can be read by others (${shown.join(', ')}${open.length > 3 ? ', …' : ''}): chmod 600`,
    );
  }
  return problems;
}

function listDir(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
}
