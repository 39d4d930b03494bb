// @ts-check
/**
 * A portal page hosting SPINCAKE in an iframe (see docs/portal.md). What a real portal
 * does, in plain JavaScript with no build step:
 *  1. gets a launch token for its player from its own back end (here /launch.json): a fresh
 *     one for every launch, since each opens one session only ({playerId, iat, exp, aud, jti},
 *     valid at most 300 s; the game takes it out of its URL once read),
 *  2. opens the game with the token in the URL fragment (never sent to any server),
 *  3. listens to the game's messages — only from the game's origin and its iframe,
 *  4. posts commands to the game — only to the game's origin, never '*'.
 */

const GAME_SOURCE = 'spincake';
const PORTAL_SOURCE = 'spincake-portal';

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const frame = /** @type {HTMLIFrameElement} */ (byId('game'));
const muteButton = /** @type {HTMLButtonElement} */ (byId('mute'));
const pauseButton = /** @type {HTMLButtonElement} */ (byId('pause'));
const resumeButton = /** @type {HTMLButtonElement} */ (byId('resume'));
let muted = false;

/** @param {number} cents */
const euros = (cents) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);

/** @param {string} text */
function setStatus(text) {
  byId('status').textContent = text;
}

/** @param {{ type: string, payload: unknown }} message */
function logEvent(message) {
  const item = document.createElement('li');
  item.dataset.type = message.type;
  item.dataset.payload = JSON.stringify(message.payload);
  item.textContent = `${message.type} ${JSON.stringify(message.payload)}`;
  byId('events').append(item);
  item.scrollIntoView({ block: 'nearest' });
}

/** @param {boolean} value */
function showMuted(value) {
  muted = value;
  muteButton.textContent = muted ? 'Unmute' : 'Mute';
  muteButton.setAttribute('aria-pressed', String(muted));
}

async function launch() {
  const response = await fetch(`/launch.json${location.search}`, { cache: 'no-store' });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  /** @type {{ gameUrl: string, launchToken: string, playerId: string, warning?: string }} */
  const launchInfo = body;
  const gameOrigin = new URL(launchInfo.gameUrl).origin;
  byId('player').textContent = launchInfo.playerId;
  if (launchInfo.warning) setStatus(launchInfo.warning);

  /**
   * @param {'mute' | 'pause' | 'resume' | 'resize'} type
   * @param {object} [payload]
   */
  const post = (type, payload = {}) => {
    frame.contentWindow?.postMessage({ source: PORTAL_SOURCE, type, payload }, gameOrigin);
  };

  window.addEventListener('message', (event) => {
    // Only the game, from its own origin and its own frame, is listened to.
    if (event.origin !== gameOrigin || event.source !== frame.contentWindow) return;
    const message = event.data;
    if (!message || message.source !== GAME_SOURCE || typeof message.type !== 'string') return;
    logEvent(message);
    const payload = message.payload ?? {};
    switch (message.type) {
      case 'ready':
        showMuted(payload.muted === true);
        for (const b of [muteButton, pauseButton, resumeButton]) b.disabled = false;
        setStatus('The game is ready.');
        break;
      case 'balanceChanged':
        byId('balance').textContent = euros(payload.balanceCents);
        break;
      case 'roundStarted':
        setStatus(`Round started: stake ${euros(payload.stakeCents)}${payload.resumed ? ' (resumed)' : ''}.`);
        break;
      case 'roundEnded':
        setStatus(payload.winCents > 0 ? `Round won: ${euros(payload.winCents)}!` : 'Round lost.');
        break;
      case 'error':
        setStatus(`The game reports ${payload.code}: ${payload.message}`);
        break;
    }
  });

  muteButton.addEventListener('click', () => {
    showMuted(!muted);
    post('mute', { muted });
  });
  pauseButton.addEventListener('click', () => post('pause'));
  resumeButton.addEventListener('click', () => post('resume'));

  frame.src = `${launchInfo.gameUrl}#launchToken=${encodeURIComponent(launchInfo.launchToken)}`;
}

launch().catch((error) => setStatus(`Cannot launch the game: ${error instanceof Error ? error.message : error}`));
