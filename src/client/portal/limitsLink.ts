/**
 * The responsible-gaming link (`?limits=URL`) shows only when it leads to one of the
 * server's portal origins: anyone can send a player a game URL, and the link must not
 * take them to a page that only looks like their operator's limits page.
 */
export function limitsLinkOnPortal(url: string | null, portalOrigins: readonly string[]): string | null {
  if (url === null) return null;
  try {
    return portalOrigins.includes(new URL(url).origin) ? url : null;
  } catch {
    return null;
  }
}
