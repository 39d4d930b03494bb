/**
 * The page's entry, kept tiny. index.html and its stylesheet paint the loading screen on
 * their own; the game is asked for once that first paint is on screen, so its download and
 * start-up never hold the first paint back. A timer stands in for the paint where none
 * comes (a page opened in a background tab).
 *
 * The game comes as two module graphs asked for together: main.ts (the controller, the
 * HUD, GSAP) and the drawn table (view/scene.ts, Pixi with it). A graph is evaluated in one
 * task when its last file arrives, so two graphs make two shorter tasks where one would
 * hold a phone's page for the sum (Lighthouse's total blocking time counts what a task
 * spends over 50 ms).
 */
let started = false;
const start = () => {
  if (started) return;
  started = true;
  const table = import('./view/scene.ts');
  void import('./main.ts').then(({ boot }) => boot(table));
  setTimeout(startIntl, 0);
};

/**
 * Pixi's text measuring builds an `Intl.Segmenter` as its module is evaluated. The page's
 * first Intl object starts the browser's ICU (its locale data; a segmenter's break rules):
 * about 16 ms here, 60–90 ms with Lighthouse's 4× slower CPU, and next to nothing for every
 * later one. Done here, in a task of its own while the scripts download, it is not added to
 * Pixi's evaluation.
 */
function startIntl(): void {
  if (typeof Intl.Segmenter === 'function') new Intl.Segmenter();
}

if (performance.getEntriesByName('first-contentful-paint').length > 0) start();
else {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  setTimeout(start, 1000);
}
