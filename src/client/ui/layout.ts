/**
 * Where everything goes for a viewport, in CSS pixels. Pure, so the Pixi scene (the
 * wheels) and the DOM controls (buttons) are placed from the same numbers.
 */
export type LayoutMode = 'desktop' | 'portrait' | 'landscape';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WheelSlot {
  /** Centre of the wheel. */
  x: number;
  y: number;
  radius: number;
}

export interface Layout {
  width: number;
  height: number;
  mode: LayoutMode;
  /**
   * How much bigger than at 1280×720 the table is drawn: 1 up to that size and on phones,
   * more on large desktop screens (1.5 at 1920×1080). The wheels, buttons, bar and header
   * grow by it; the DOM layer gets it as `--ui-scale`.
   */
  scale: number;
  header: Rect;
  bar: Rect;
  /** The responsible-gaming line, under the bar. */
  footer: Rect;
  wheels: WheelSlot[];
  goButtons: Rect[];
}

/** Smallest tap target on touch screens (WCAG / platform guidelines). */
export const MIN_TAP = 44;
/** The biggest wheel at the 1280×720 design size; large screens scale it up. */
const MAX_RADIUS = 150;
/** The desktop design size: below it the layout is as designed, above it everything grows. */
export const DESIGN = { width: 1280, height: 720 };
/** No bigger than twice the design (a 2560×1440 screen); beyond that, more room around. */
const MAX_SCALE = 2;
/** The plate under each cake reaches this far, as a multiple of the wheel's radius. */
export const PLATE = 1.08;

interface Metrics {
  header: number;
  bar: number;
  footer: number;
  go: { width: number; height: number };
  gap: number;
  /** Room above the wheel for the piping-tip cursor, as a fraction of the radius. */
  cursorAbove: number;
  pad: number;
}

const METRICS: Record<LayoutMode, Metrics> = {
  desktop: { header: 64, bar: 92, footer: 28, go: { width: 96, height: 48 }, gap: 18, cursorAbove: 0.3, pad: 24 },
  portrait: { header: 56, bar: 148, footer: 40, go: { width: 88, height: MIN_TAP }, gap: 12, cursorAbove: 0.3, pad: 8 },
  landscape: { header: 44, bar: 64, footer: 18, go: { width: 76, height: MIN_TAP }, gap: 8, cursorAbove: 0.3, pad: 8 },
};

/**
 * Phones narrower than 360 px (320 px wide ones): a slimmer header and bar and tighter
 * gaps, so that the wheels keep the height the buttons would otherwise take.
 */
export const NARROW_WIDTH = 360;
const NARROW_PORTRAIT: Metrics = {
  header: 48,
  bar: 126,
  footer: 40,
  go: { width: 76, height: MIN_TAP },
  // Past the plate (0.08 × the radius under the cake) for every radius these widths give.
  gap: 8,
  cursorAbove: 0.3,
  pad: 4,
};

/** The smallest size of a wheel's numbers, in CSS pixels (legible on a phone). */
export const MIN_POINTS_FONT_PX = 12;

/** The size of the points written on a wheel of `radius`: with the wheel, never under 12 px. */
export function pointsFontPx(radius: number): number {
  return Math.max(MIN_POINTS_FONT_PX, Math.round(radius * 0.175));
}

function metricsFor(mode: LayoutMode, width: number): Metrics {
  return mode === 'portrait' && width < NARROW_WIDTH ? NARROW_PORTRAIT : METRICS[mode];
}

export function layoutMode(width: number, height: number): LayoutMode {
  if (height > width && width <= 700) return 'portrait';
  if (height <= 500) return 'landscape';
  return 'desktop';
}

/** The desktop layout's growth on a screen larger than the design size; 1 everywhere else. */
export function layoutScale(mode: LayoutMode, width: number, height: number): number {
  if (mode !== 'desktop') return 1;
  const fit = Math.min(width / DESIGN.width, height / DESIGN.height, MAX_SCALE);
  // Two decimals: the same viewport always gives the same sizes, and no sub-pixel jitter.
  return fit > 1 ? Math.floor(fit * 100) / 100 : 1;
}

function scaled(m: Metrics, s: number): Metrics {
  if (s === 1) return { ...m, go: { ...m.go } };
  return {
    header: m.header * s,
    bar: m.bar * s,
    footer: m.footer * s,
    go: { width: m.go.width * s, height: m.go.height * s },
    gap: m.gap * s,
    cursorAbove: m.cursorAbove,
    pad: m.pad * s,
  };
}

/**
 * `footerHeight`: the responsible-gaming footer's height as the page measured it at this width
 * (on phones its text wraps to as many lines as the width needs, at a legible size); the
 * footer takes at least the mode's own height. Desktop keeps its one-line footer.
 */
export function computeLayout(width: number, height: number, footerHeight = 0): Layout {
  const mode = layoutMode(width, height);
  const scale = layoutScale(mode, width, height);
  const m = scaled(metricsFor(mode, width), scale);
  if (mode !== 'desktop') m.footer = Math.max(m.footer, Math.ceil(footerHeight));
  const header: Rect = { x: 0, y: 0, width, height: m.header };
  const footer: Rect = { x: 0, y: height - m.footer, width, height: m.footer };
  const bar: Rect = { x: 0, y: footer.y - m.bar, width, height: m.bar };
  const area: Rect = { x: 0, y: m.header, width, height: Math.max(0, bar.y - m.header) };

  // Row of four or 2 × 2: whichever gives the bigger wheels.
  const arrangements = [
    { cols: 4, rows: 1 },
    { cols: 2, rows: 2 },
  ].map(({ cols, rows }) => {
    const cellW = (area.width - 2 * m.pad) / cols;
    const cellH = area.height / rows;
    const byWidth = (cellW - m.gap) / (2 * PLATE);
    const byHeight = (cellH - m.go.height - 2 * m.gap) / (2 + m.cursorAbove);
    return { cols, rows, cellW, cellH, radius: Math.max(8, Math.min(MAX_RADIUS * scale, byWidth, byHeight)) };
  });
  const best = arrangements[0]!.radius >= arrangements[1]!.radius ? arrangements[0]! : arrangements[1]!;

  const wheels: WheelSlot[] = [];
  const goButtons: Rect[] = [];
  const blockH = best.radius * (2 + m.cursorAbove) + m.gap + m.go.height;
  for (let i = 0; i < 4; i++) {
    const col = i % best.cols;
    const row = Math.floor(i / best.cols);
    const cx = area.x + m.pad + best.cellW * (col + 0.5);
    const cellTop = area.y + best.cellH * row;
    const top = cellTop + (best.cellH - blockH) / 2;
    const cy = top + best.radius * (1 + m.cursorAbove);
    wheels.push({ x: round(cx), y: round(cy), radius: round(best.radius) });
    goButtons.push({
      x: round(cx - m.go.width / 2),
      y: round(cy + best.radius + m.gap),
      width: m.go.width,
      height: m.go.height,
    });
  }
  return { width, height, mode, scale, header, bar, footer, wheels, goButtons };
}

const round = (v: number) => Math.round(v * 2) / 2;
