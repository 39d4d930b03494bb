/**
 * Resolves in a later task, so that the browser can paint and answer input in between: the
 * start-up is cut into steps this way, none of which holds the page for long (Lighthouse's
 * total blocking time counts every task over 50 ms).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
