/**
 * A Vite plugin: `<link rel="preload" as="font">` in the built index.html for every woff2
 * font of the build (Fredoka's three weights), so the browser fetches them with the page
 * instead of after it has laid the text out. The table's textures are drawn only once
 * they are there (main.ts waits for them), and the loading screen's logo is in them.
 */
import type { Plugin } from 'vite';

export function preloadFonts(): Plugin {
  return {
    name: 'spincake:preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const fonts = Object.keys(context.bundle ?? {})
          .filter((fileName) => fileName.endsWith('.woff2'))
          .sort();
        return fonts.map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${fileName}`, as: 'font', type: 'font/woff2', crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
