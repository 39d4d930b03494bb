import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, IMMUTABLE, registerClientFiles, REVALIDATE } from './clientFiles.ts';

describe('cacheControlFor', () => {
  it('caches hashed build assets for a year, immutable; revalidates everything else', () => {
    expect(cacheControlFor('/assets/main-BUsfxmZu.js')).toBe(IMMUTABLE);
    expect(cacheControlFor('/assets/getTexelRangeRects---69sLeC.js')).toBe(IMMUTABLE);
    expect(cacheControlFor('/assets/fredoka-latin-500-normal-B0JifZgm.woff2')).toBe(IMMUTABLE);
    expect(cacheControlFor('/')).toBe(REVALIDATE);
    expect(cacheControlFor('/index.html')).toBe(REVALIDATE);
    expect(cacheControlFor('/assets/main.js')).toBe(REVALIDATE);
    expect(cacheControlFor('/robots.txt')).toBe(REVALIDATE);
  });
});

describe('registerClientFiles', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spincake-client-'));
  const app = Fastify();
  const html = Buffer.from('<!doctype html><title>t</title>' + 'x'.repeat(2000));
  const js = Buffer.from('console.log(1);'.repeat(200));

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), html);
    fs.writeFileSync(path.join(dir, 'index.html.br'), zlib.brotliCompressSync(html));
    fs.writeFileSync(path.join(dir, 'index.html.gz'), zlib.gzipSync(html));
    fs.writeFileSync(path.join(dir, 'assets', 'main-AbCd1234.js'), js);
    fs.writeFileSync(path.join(dir, 'assets', 'main-AbCd1234.js.gz'), zlib.gzipSync(js));
    await registerClientFiles(app, dir);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers / with the copy the browser accepts (an index file and preCompressed, together)', async () => {
    for (const [accept, encoding, decode] of [
      ['br, gzip', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['identity', undefined, (b: Buffer) => b],
    ] as const) {
      const response = await app.inject({ url: '/', headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.headers['cache-control']).toBe(REVALIDATE);
      expect(decode(response.rawPayload).equals(html)).toBe(true);
    }
  });

  it('falls back to the next encoding the browser accepts, and marks a hashed asset immutable', async () => {
    const response = await app.inject({ url: '/assets/main-AbCd1234.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(zlib.gunzipSync(response.rawPayload).equals(js)).toBe(true);
  });
});
