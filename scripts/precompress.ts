/**
 * A Vite plugin: after the build, a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9)
 * copy of every compressible file it wrote, made once here instead of on every request.
 * The server sends the one the browser accepts (src/server/http/clientFiles.ts). A copy that
 * would not be smaller than the file (tiny files, already-compressed fonts) is not written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|wav|webmanifest)$/i;
/** Below this, the headers of a compressed answer cost more than they save. */
const MIN_BYTES = 512;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Both copies of `bytes`, made on libuv's thread pool (all files at once, on every core). */
export async function compress(bytes: Buffer): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: 9 }),
  ]);
  return { br, gz };
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'spincake:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((fileName) => COMPRESSIBLE.test(fileName))
        .map((fileName) => path.join(outDir, fileName));
      await Promise.all(
        files.map(async (file) => {
          const bytes = await fs.promises.readFile(file);
          if (bytes.length < MIN_BYTES) return;
          for (const [ext, packed] of Object.entries(await compress(bytes))) {
            if (packed.length < bytes.length) await fs.promises.writeFile(`${file}.${ext}`, packed);
          }
        }),
      );
    },
  };
}
