import gsap from 'gsap';

/**
 * What the portal's pause, resume and resize do to the page. Pause freezes the animation
 * clock (every spin, card and delayed step runs on GSAP's global timeline) and makes
 * the page inert, so nothing can be pressed behind the portal's own overlay; sounds
 * already started play out. Resize gives the table an explicit size, in CSS pixels,
 * from the top-left corner of the frame (the layout follows it as on any resize).
 */
export interface PageEffects {
  pause(): void;
  resume(): void;
  resize(width: number, height: number): void;
}

export function createPageEffects(host: HTMLElement, timeline: gsap.core.Timeline = gsap.globalTimeline): PageEffects {
  const body = host.ownerDocument.body;
  // The test clock may hold the timeline already: resume only what pause stopped.
  let stoppedByPause = false;
  return {
    pause() {
      if (body.dataset.paused === 'true') return;
      stoppedByPause = !timeline.paused();
      timeline.pause();
      body.inert = true;
      body.dataset.paused = 'true';
    },
    resume() {
      if (body.dataset.paused !== 'true') return;
      if (stoppedByPause) timeline.resume();
      stoppedByPause = false;
      body.inert = false;
      delete body.dataset.paused;
    },
    resize(width, height) {
      Object.assign(host.style, { right: 'auto', bottom: 'auto', width: `${width}px`, height: `${height}px` });
    },
  };
}
