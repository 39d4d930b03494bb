import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress.ts';
import { preloadFonts } from './scripts/preloadFonts.ts';

const apiPort = Number(process.env.PORT ?? 8080);

export default defineConfig({
  root: '.',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Sounds are wanted only after the first touch: never inlined into the first load's script.
    assetsInlineLimit: (file) => (/\.(wav|mp3)$/.test(file) ? false : undefined),
    // The precompress plugin's brotli takes seconds by design; no warning for it on every build.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  plugins: [preloadFonts(), precompress()],
  // `npm run dev`: Vite serves the client and forwards the API to the game server.
  server: { proxy: { '/api': `http://127.0.0.1:${apiPort}` } },
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'eslint.config.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most server test files spend their time waiting (fsyncs, child servers, PostgreSQL,
    // timers), not computing: four at a time on two cores took the suite from 323 s to 159 s.
    maxWorkers: 4,
  },
});
