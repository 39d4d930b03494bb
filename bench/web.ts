/**
 * `npm run bench:web`: how fast the game loads, as Lighthouse sees it, next to a baseline
 * revision's build measured in the same run.
 *
 * Two servers run side by side, each the README's server (`src/server/main.ts`, demo mode, a
 * fresh data dir, its own `vite build` in `dist/`): this checkout, and the tree of the
 * baseline revision (`--baseline REV` or `BENCH_BASELINE=REV`; `HEAD~1` by default), taken with
 * `git archive` and given this checkout's node_modules. Lighthouse (the version in package.json, its
 * CLI, one fresh headless Debian Chromium per run, so nothing is cached) runs 3 times per preset
 * (mobile: simulated slow 4G and a 4× slower CPU; desktop), the two builds taken in turn. The
 * medians, and the bytes on the wire by kind, go to BENCHMARKS.md (`## Web`).
 *
 * Then a returning player: in one Chromium profile the page loads, waits until the table is
 * playable, and reloads; the bytes that the reload takes from the network (not from the cache),
 * by path, are counted for each build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { writeBenchmarkSection } from './benchmarksFile.ts';
import { cleanUp, currentTree, materialise, spawnTreeServer, tempDir, type ServerTree } from './serverTree.ts';

const LIGHTHOUSE_VERSION: string = JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')).version;

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const PRESETS = ['mobile', 'desktop'] as const;
type Preset = (typeof PRESETS)[number];

/** What one Lighthouse run reports, for the table. */
interface Run {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  tti: number;
  /** Transfer size by Lighthouse's resource kind (document, script, stylesheet, font, media, other, total…). */
  bytes: Record<string, number>;
  requests: number;
  /** Console errors and failed requests, as best practices counts them. */
  errors: string[];
}

interface Target {
  tree: ServerTree;
  url: string;
  runs: Record<Preset, Run[]>;
  reload?: { bytes: number; paths: string[] };
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function build(tree: ServerTree): void {
  execFileSync(
    process.execPath,
    [path.join(tree.root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: tree.root,
      stdio: 'inherit',
    },
  );
}

async function serve(tree: ServerTree): Promise<string> {
  // The README's server: demo mode, a fresh data dir (starter blocks generated on the first start).
  const server = await spawnTreeServer(tree, { DATA_DIR: tempDir('spincake-web-') }, 300_000);
  return server.url;
}

function lighthouse(url: string, preset: Preset): Promise<Run> {
  const cli = path.resolve('node_modules/lighthouse/cli/index.js');
  const args = [
    cli,
    `${url}/`,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--only-categories=performance,accessibility,best-practices',
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CHROME_PATH: CHROMIUM },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited ${code}:\n${err}`));
      try {
        resolve(readReport(JSON.parse(out) as Lhr));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

interface Lhr {
  runtimeError?: { message: string };
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    { numericValue?: number; score: number | null; details?: { items?: Record<string, unknown>[] } }
  >;
}

function readReport(lhr: Lhr): Run {
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? NaN) * 100);
  const value = (id: string) => {
    const v = lhr.audits[id]?.numericValue;
    if (v === undefined) throw new Error(`lighthouse: no ${id} in the report`);
    return v;
  };
  const bytes: Record<string, number> = {};
  let requests = 0;
  for (const item of lhr.audits['resource-summary']?.details?.items ?? []) {
    const kind = String(item.resourceType);
    bytes[kind] = Number(item.transferSize);
    if (kind === 'total') requests = Number(item.requestCount);
  }
  const errors = (lhr.audits['errors-in-console']?.details?.items ?? []).map((item) =>
    String(item.description ?? item.url ?? '?'),
  );
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    speedIndex: value('speed-index'),
    tti: value('interactive'),
    bytes,
    requests,
    errors,
  };
}

/** A returning player: loads, waits for the table, reloads; what the reload takes from the network. */
async function measureReload(url: string): Promise<{ bytes: number; paths: string[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    await page.waitForSelector('body[data-ready=true]', { state: 'attached', timeout: 60_000 });
    // Give late loads (audio is only fetched on a touch) a moment before the reload.
    await page.waitForTimeout(500);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // Memory-cache hits are announced by requestServedFromCache; disk-cache hits by fromDiskCache.
    const responses = new Map<string, { path: string; status: number; cached: boolean }>();
    const servedFromCache = new Set<string>();
    const sizes = new Map<string, number>();
    cdp.on('Network.requestServedFromCache', ({ requestId }) => servedFromCache.add(requestId));
    cdp.on('Network.responseReceived', ({ requestId, response: r }) => {
      const cached = Boolean(r.fromDiskCache || r.fromPrefetchCache || r.fromServiceWorker);
      responses.set(requestId, { path: new URL(r.url).pathname, status: r.status, cached });
    });
    cdp.on('Network.loadingFinished', (event) => sizes.set(event.requestId, event.encodedDataLength));
    await page.reload();
    await page.waitForSelector('body[data-ready=true]', { state: 'attached', timeout: 60_000 });
    await page.waitForTimeout(500);
    let bytes = 0;
    const fromNetwork = new Map<string, string>();
    for (const [id, r] of responses) {
      if (r.cached || servedFromCache.has(id)) continue;
      bytes += sizes.get(id) ?? 0;
      fromNetwork.set(id, `${r.path} (${r.status})`);
    }
    return { bytes, paths: [...new Set(fromNetwork.values())].sort() };
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function ms(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`;
}
const kib = (v: number) => `${(v / 1024).toFixed(1)} KiB`;

const ROWS: { label: string; get: (run: Run) => number; show: (v: number) => string; target?: string }[] = [
  { label: 'performance score', get: (r) => r.performance, show: String, target: '≥ 95' },
  { label: 'accessibility score', get: (r) => r.accessibility, show: String, target: '100' },
  { label: 'best practices score', get: (r) => r.bestPractices, show: String, target: '100' },
  { label: 'first contentful paint', get: (r) => r.fcp, show: ms, target: '≤ 1.5 s' },
  { label: 'largest contentful paint', get: (r) => r.lcp, show: ms, target: '≤ 2.0 s' },
  { label: 'total blocking time', get: (r) => r.tbt, show: ms, target: '≤ 150 ms' },
  { label: 'cumulative layout shift', get: (r) => r.cls, show: (v) => v.toFixed(3), target: '≤ 0.02' },
  { label: 'speed index', get: (r) => r.speedIndex, show: ms },
  { label: 'time to interactive', get: (r) => r.tti, show: ms },
  { label: 'requests', get: (r) => r.requests, show: String },
];
const KINDS = ['document', 'script', 'stylesheet', 'font', 'image', 'media', 'other', 'third-party', 'total'];

function table(targets: [Target, Target], preset: Preset): string {
  const [before, after] = targets;
  const lines = [
    `| ${preset}, median of ${RUNS} | before \`${before.tree.label}\` | after \`${after.tree.label}\` | after ÷ before | target (mobile) |`,
    '| --- | ---: | ---: | ---: | --- |',
  ];
  const row = (label: string, b: number, a: number, show: (v: number) => string, target = '') => {
    const ratio = b > 0 ? `${(a / b).toFixed(2)}×` : '—';
    lines.push(`| ${label} | ${show(b)} | ${show(a)} | ${ratio} | ${preset === 'mobile' ? target : ''} |`);
  };
  for (const { label, get, show, target } of ROWS) {
    row(label, median(before.runs[preset].map(get)), median(after.runs[preset].map(get)), show, target);
  }
  for (const kind of KINDS) {
    const get = (r: Run) => r.bytes[kind] ?? 0;
    const b = median(before.runs[preset].map(get));
    const a = median(after.runs[preset].map(get));
    if (a === 0 && b === 0) continue;
    row(`bytes on the wire: ${kind}`, b, a, kib, kind === 'total' ? '≤ 250 KiB' : '');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const rev = argument('--baseline') ?? process.env.BENCH_BASELINE ?? 'HEAD~1';
  const after: Target = { tree: currentTree(), url: '', runs: { mobile: [], desktop: [] } };
  const before: Target = { tree: materialise(rev), url: '', runs: { mobile: [], desktop: [] } };
  const targets: [Target, Target] = [before, after];
  const loadStart = loadavg()[0]!;
  for (const target of targets) {
    console.log(`${target.tree.label}: vite build`);
    build(target.tree);
  }
  for (const target of targets) {
    target.url = await serve(target.tree);
    console.log(`${target.tree.label}: serving on ${target.url}`);
  }
  for (let run = 0; run < RUNS; run++) {
    for (const preset of PRESETS) {
      // Taken in turn, and in the other order every other round, so that the machine's drift hits both.
      const order = run % 2 ? [after, before] : targets;
      for (const target of order) {
        const result = await lighthouse(target.url, preset);
        target.runs[preset].push(result);
        console.log(
          `run ${run + 1} ${preset} ${target.tree.label}: performance ${result.performance}, FCP ${ms(result.fcp)}, ` +
            `LCP ${ms(result.lcp)}, TBT ${ms(result.tbt)}, CLS ${result.cls.toFixed(3)}, ${kib(result.bytes.total ?? 0)}`,
        );
      }
    }
  }
  for (const target of targets) target.reload = await measureReload(target.url);
  const loadEnd = loadavg()[0]!;
  await cleanUp();

  const version = execFileSync(CHROMIUM, ['--version'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  const errors = (target: Target) => [...new Set(PRESETS.flatMap((p) => target.runs[p].flatMap((r) => r.errors)))];
  const reload = (target: Target) =>
    `${target.tree.label}: ${kib(target.reload!.bytes)} from the network, ${target.reload!.paths.map((p) => `\`${p}\``).join(', ')}`;
  const section = [
    '## Web',
    '',
    `\`npm run bench:web\` (\`bench/web.ts\`), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
      `Node ${process.version}, Lighthouse ${LIGHTHOUSE_VERSION} (CLI), ${version}, headless (\`${CHROME_FLAGS.join(' ')}\`). ` +
      `Load average ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end (other work shares the machine's cores).`,
    '',
    `Both builds in the same run: before is revision \`${before.tree.label}\` (its tree from \`git archive\`, built with its own ` +
      `vite.config.ts), after is \`${after.tree.label}\`. Each is the README's server (\`src/server/main.ts\`, demo mode, a fresh ` +
      `data dir) serving its own \`dist/\`. ${RUNS} Lighthouse runs per preset and build, taken in turn (the order flips every ` +
      'round), each in a fresh Chromium (an empty cache); medians shown. Mobile: Lighthouse’s default (simulated slow 4G, ' +
      '150 ms RTT, 1.6 Mbit/s, 4× CPU slowdown, Moto G Power screen); desktop: `--preset=desktop`. Bytes on the wire: ' +
      'Lighthouse’s resource summary (transfer sizes, headers included), everything the page loaded before the network went quiet ' +
      '(the table is playable by then).',
    '',
    table(targets, 'mobile'),
    '',
    table(targets, 'desktop'),
    '',
    'A returning player (one Chromium profile: load, wait until the table is playable, reload; what the reload took ' +
      'from the network rather than the cache):',
    '',
    `- ${reload(before)}`,
    `- ${reload(after)}`,
    '',
    `Console errors seen by best practices: before ${errors(before).join('; ') || 'none'}; after ${errors(after).join('; ') || 'none'}.`,
    '',
  ].join('\n');
  console.log('\n' + section);
  await writeBenchmarkSection('## Web', section, true);
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  await cleanUp();
  process.exit(1);
});
