/**
 * The page's entry, kept tiny. index.html and its stylesheet paint the loading screen on
 * their own; the game (main.ts: Pixi, GSAP, the table) is asked for once that first paint
 * is on screen, so its download and start-up never hold the first paint back. A timer
 * stands in for the paint where none comes (a page opened in a background tab).
 */
let started = false;
const start = () => {
  if (started) return;
  started = true;
  void import('./main.ts');
};
if (performance.getEntriesByName('first-contentful-paint').length > 0) start();
else {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  setTimeout(start, 1000);
}
