import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Files named with a content hash by the build (`dist/assets/name-HASH.ext`): they never change. */
const HASHED_ASSET = /^\/assets\/[^/]+-[\w-]{8}\.[a-z0-9]+$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and any unhashed file: cached, but asked again (a 304 when unchanged) on every visit. */
export const REVALIDATE = 'no-cache';

/** The Cache-Control of a client file, from its URL path. */
export function cacheControlFor(urlPath: string): string {
  return HASHED_ASSET.test(urlPath) ? IMMUTABLE : REVALIDATE;
}

/**
 * The built client (`vite build` → `dist/`). The build writes a brotli (`.br`) and a gzip
 * (`.gz`) copy beside each compressible file; the one the browser accepts is sent with its
 * `Content-Encoding` (and `Vary: Accept-Encoding` on every answer), the plain file otherwise.
 * Hashed assets are cached for a year, immutable; everything else is revalidated.
 */
export async function registerClientFiles(app: FastifyInstance, clientDir: string): Promise<void> {
  const root = path.resolve(clientDir);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // An array: with preCompressed, @fastify/static looks an index file up only in an array (a string answers 404).
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const served = '/' + path.relative(root, filePath).split(path.sep).join('/');
      void reply.header('cache-control', cacheControlFor(served.replace(/\.(br|gz)$/, '')));
    },
  });
}
