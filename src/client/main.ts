// The stylesheet and the fonts come with index.html (page.css); entry.ts loads this module.
import gsap from 'gsap';
import { createGameAudio } from './audio/game-audio.ts';
import { FONT_FAMILY } from './art/font.ts';
import { mulberry32 } from '../common/seededRandom.ts';
import { nextTask } from './nextTask.ts';
import { GameController } from './game/controller.ts';
import { stringsFor } from './i18n/index.ts';
import { createGameApi } from './net/api.ts';
import { createProofApi } from './net/proofApi.ts';
import { readPageOptions } from './pageOptions.ts';
import { fetchClientConfig } from './portal/clientConfig.ts';
import { PortalLink } from './portal/index.ts';
import { takeLaunchToken } from './portal/launch.ts';
import { limitsLinkOnPortal } from './portal/limitsLink.ts';
import { Hud } from './ui/hud.ts';
import { computeLayout } from './ui/layout.ts';
import { fillRules, HistoryList, Panel } from './ui/panels.ts';
import { reflectRound } from './ui/roundReflection.ts';
import type { TicketCheckOutcome } from './ui/ticketCheck.ts';
import type { Scene } from './view/scene.ts';

function setLoading(fraction: number): void {
  const bar = document.getElementById('loading-bar');
  if (bar) bar.style.transform = `scaleX(${fraction})`;
  document.getElementById('loading')?.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
}

/** Whether this page load is a reload of the same tab. */
function reloaded(): boolean {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type === 'reload';
}

/**
 * Starts the game. `table` is the drawn table's module (Pixi with it), asked for by the
 * entry at the same time as this one: it arrives and is evaluated in a task of its own.
 */
export async function boot(table: Promise<{ Scene: typeof Scene }>): Promise<void> {
  const options = readPageOptions(location);
  // First of all: the launch token leaves the address bar and the history (portal/launch.ts).
  const launchToken = takeLaunchToken({
    location,
    history: window.history,
    sessionStorage,
    reloaded: reloaded(),
  });
  const locale = options.locale;
  const strings = stringsFor(locale);
  // Its own chunk, fetched while the fonts load; absent from the normal page's path.
  const testMode = options.testMode ? import('./testMode/index.ts') : null;
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  document.documentElement.lang = locale;
  document.body.dataset.phase = 'loading';
  document.body.dataset.overlay = 'hidden';
  // Said over the page while the portal holds the game paused (styles.css, body[data-paused]).
  document.body.dataset.pausedLabel = strings.paused;
  const loadingLabel = document.getElementById('loading-label');
  if (loadingLabel) loadingLabel.textContent = strings.loading;
  const loadingRisk = document.getElementById('loading-risk');
  if (loadingRisk) loadingRisk.textContent = strings.riskLine;

  setLoading(0.1);
  // The wheel texts are drawn into textures: the font must be there before the first frame.
  await Promise.all(['500', '600', '700'].map((w) => document.fonts.load(`${w} 32px ${FONT_FAMILY}`, '0123456789€')));
  setLoading(0.4);
  await nextTask();

  const host = document.getElementById('app')!;
  const api = createGameApi();
  const proofApi = createProofApi();
  const portal = new PortalLink(launchToken);
  const audio = createGameAudio(localStorage);
  // Mobile browsers allow sound only after a gesture: the first tap anywhere unlocks it.
  window.addEventListener('pointerdown', () => audio.unlock(), { once: true, capture: true });
  let controller: GameController | null = null;
  const rulesPanel = new Panel(document.body, 'rules-panel', strings.rules, strings);
  const historyPanel = new Panel(document.body, 'history-panel', strings.history, strings);
  const history = new HistoryList(
    historyPanel.body,
    strings,
    locale,
    (before) => api.plays(controller?.token ?? '', 10, before),
    (play) => {
      const started = controller?.replay(play) ?? false;
      if (started) historyPanel.close();
      return started;
    },
    // The proofs' checks and their SHA-256 come with the first check a player asks for, not
    // with the page; a chunk that cannot be fetched (offline) is said as such.
    (play) =>
      import('./ui/ticketCheck.ts').then(
        ({ checkTicket }) => checkTicket(proofApi, controller?.token ?? '', play, strings),
        (): TicketCheckOutcome => ({ kind: 'failed', message: strings.ticketCheck.offline }),
      ),
    () => controller?.sessionSummary() ?? null,
    () => controller?.liveRound() ?? null,
    () => proofApi.transparencyHead(),
  );
  const hud = new Hud(host, strings, locale, {
    play: () => void controller?.play(),
    go: (i) => controller?.go(i),
    goAll: () => controller?.goAll(),
    stake: (s) => controller?.selectStake(s),
    toggleMute: () => controller?.toggleMute(),
    toggleQuickSpin: () => controller?.toggleQuickSpin(),
    history: () => {
      if (hud.resultOpen) return;
      historyPanel.open();
      void history.refresh();
    },
    rules: () => {
      if (hud.resultOpen) return;
      fillRules(rulesPanel.body, strings, locale);
      rulesPanel.open();
    },
    closeResult: () => controller?.closeResult(),
    replayAgain: () => controller?.replayAgain(),
    deposit: portal.embedded ? () => controller?.deposit() : undefined,
    reloadDemo: () => void controller?.reloadDemo(),
  });

  // Laid out at once, before the first frame shows it: placed later, its buttons would jump (layout shift).
  hud.relayout(computeLayout(host.clientWidth, host.clientHeight, hud.footerHeight()));
  hud.setDemo(portal.launchToken === null);
  if (options.limitsUrl !== null) {
    // Shown only once the server says it leads to a portal origin (portal/limitsLink.ts).
    void fetchClientConfig().then((config) =>
      hud.setLimitsLink(limitsLinkOnPortal(options.limitsUrl, config?.portalOrigins ?? [])),
    );
  }

  // Seeded in test mode, so spins and sprinkles fall the same way in every run.
  const random = options.testMode ? mulberry32(options.seed) : Math.random;
  await nextTask();
  // A replay turns in silence (its ticks included).
  const tick = () => void (controller?.replayingNow ? undefined : audio.play('tick'));
  const { Scene: SceneClass } = await table;
  const scene = await SceneClass.create(hud.canvasHost, options.renderer, tick, random);
  document.body.dataset.renderer = scene.rendererName;
  setLoading(0.7);

  const relayout = () => {
    const layout = computeLayout(host.clientWidth, host.clientHeight, hud.footerHeight());
    scene.relayout(layout);
    hud.relayout(layout);
  };
  await scene.layOut(computeLayout(host.clientWidth, host.clientHeight, hud.footerHeight()));
  relayout();
  new ResizeObserver(relayout).observe(host);
  await nextTask();

  controller = new GameController({
    api: portal.watchApi(api),
    table: scene,
    controls: portal.watchControls(hud),
    audio,
    strings,
    locale,
    storage: portal.storage(localStorage),
    random,
    reducedMotion,
    launchToken: portal.launchToken,
    later: (seconds, fn) => void gsap.delayedCall(seconds, fn),
    onChange: (state) => {
      reflectRound(state);
      portal.roundChanged(state);
    },
    onDeposit: (request) => portal.requestDeposit(request),
    onOnline: (listener) => window.addEventListener('online', listener),
  });
  // Back to the page (a deposit made in the portal, another tab): the server's balance again.
  document.addEventListener('visibilitychange', () => !document.hidden && controller?.refresh());
  if (testMode) {
    const c = controller;
    const { installTestApi } = await testMode;
    installTestApi({
      round: () => c.round,
      finishSpins: () => scene.finishSpinsNow(),
      wake: () => scene.wake(),
      token: () => c.token,
      renderer: scene.rendererName,
      table: scene,
    });
  }
  const game = controller;
  // Pace: a tap on the table, or Space / Enter anywhere but on a usable button, lands the
  // turning wheels at once on their stops.
  hud.canvasHost.addEventListener('pointerdown', () => game.hurry());
  document.addEventListener('keydown', (e) => {
    if (e.key !== ' ' && e.key !== 'Enter') return;
    const target = e.target as HTMLElement | null;
    if (target?.closest('button:not(:disabled), a, [role="button"], [role="dialog"]')) return;
    if (game.hurry()) e.preventDefault();
  });
  void portal.connect({ audio, toggleMute: () => game.toggleMute(), host });
  await controller.start();
  await portal.ready();
  setLoading(1);
  const loading = document.getElementById('loading');
  if (loading) {
    // Out of the accessibility tree at once; out of the page once it has faded.
    loading.setAttribute('aria-hidden', 'true');
    loading.classList.add('done');
    loading.addEventListener('transitionend', () => loading.remove(), { once: true });
    setTimeout(() => loading.remove(), 1_000);
  }
  document.body.dataset.ready = 'true';
  // For bench:client: the first frame the player can act on.
  requestAnimationFrame(() => performance.mark('spincake:interactive'));
}
