import { Container, Graphics, GraphicsContext } from 'pixi.js';
import type { SymbolName } from '../../rules/unit.ts';
import { PALETTE, SHADES } from './palette.ts';

/**
 * Our own vector art for the wheel symbols, the cursor and the confetti.
 *
 * Each drawing is made once into a GraphicsContext in a 100 × 100 design box centred on
 * (0, 0), then shared by every Graphics that shows it (cheap to instance 24 times per
 * table) and scaled to the requested size. Colours are flat fills with a translucent
 * white shine, so the art looks the same on Pixi's WebGL and canvas renderers.
 *
 * The contexts are shared: destroy the returned containers normally, never with
 * `{ context: true }`.
 */

const DESIGN = 100;
const OUTLINE = 4;
const outline = (color: number = PALETTE.chocolate, width = OUTLINE) =>
  ({ width, color, join: 'round', cap: 'round' }) as const;
const shine = { color: 0xffffff, alpha: 0.6 } as const;

function bell(g: GraphicsContext): void {
  const edge = outline(SHADES.goldDark);
  // Clapper first: the lip covers its top.
  g.circle(0, 33, 7.5).fill(SHADES.goldDeep).stroke(edge);
  // Body: a dome that flares into the lip.
  g.moveTo(0, -33)
    .bezierCurveTo(18, -33, 25, -22, 25, -6)
    .bezierCurveTo(25, 8, 29, 17, 39, 22)
    .lineTo(-39, 22)
    .bezierCurveTo(-29, 17, -25, 8, -25, -6)
    .bezierCurveTo(-25, -22, -18, -33, 0, -33)
    .closePath()
    .fill(PALETTE.gold)
    .stroke(edge);
  // Shade on the right flank, a decorative band, then the lip.
  g.moveTo(10, -30)
    .bezierCurveTo(20, -24, 22, -10, 22, -4)
    .bezierCurveTo(22, 8, 26, 16, 33, 20)
    .lineTo(20, 20)
    .bezierCurveTo(16, 10, 15, -12, 10, -30)
    .closePath()
    .fill({ color: SHADES.goldDeep, alpha: 0.7 });
  g.moveTo(-26, 9).quadraticCurveTo(0, 15, 26, 9).stroke(outline(SHADES.goldDark, 3));
  g.roundRect(-42, 18, 84, 11, 5.5).fill(SHADES.goldDeep).stroke(edge);
  g.roundRect(-36, 20.5, 40, 3, 1.5).fill({ color: 0xffffff, alpha: 0.45 });
  // Shine: a crescent on the left and a dot above it.
  g.moveTo(-13, -26)
    .quadraticCurveTo(-20, -12, -20, 12)
    .quadraticCurveTo(-13, -4, -7, -24)
    .closePath()
    .fill({ color: 0xffffff, alpha: 0.75 });
  g.circle(-5, -27, 2.5).fill({ color: 0xffffff, alpha: 0.8 });
  // Raspberry bow on top.
  const bow = outline(SHADES.raspberryDark, 3);
  g.moveTo(-3, -38).lineTo(-9, -24).lineTo(-4, -26).lineTo(-1, -22).closePath().fill(PALETTE.raspberry).stroke(bow);
  g.moveTo(3, -38).lineTo(9, -24).lineTo(4, -26).lineTo(1, -22).closePath().fill(PALETTE.raspberry).stroke(bow);
  g.moveTo(0, -38).bezierCurveTo(-8, -50, -20, -47, -16, -38).bezierCurveTo(-13, -33, -6, -35, 0, -38).closePath();
  g.fill(PALETTE.raspberry).stroke(bow);
  g.moveTo(0, -38).bezierCurveTo(8, -50, 20, -47, 16, -38).bezierCurveTo(13, -33, 6, -35, 0, -38).closePath();
  g.fill(PALETTE.raspberry).stroke(bow);
  g.circle(0, -38, 4.5).fill(PALETTE.raspberry).stroke(bow);
  g.circle(-11, -42, 1.8).fill({ color: 0xffffff, alpha: 0.7 });
  // A sparkle: wins glitter.
  g.star(34, -30, 4, 9, 2.5).fill(0xffffff).stroke(outline(SHADES.goldDeep, 1.5));
}

function cupcake(g: GraphicsContext): void {
  const edge = outline();
  // Pleated raspberry wrapper.
  g.poly([-28, 6, 28, 6, 20, 46, -20, 46]).fill(PALETTE.raspberry).stroke(edge);
  for (const x of [-14, 0, 14]) {
    g.moveTo(x, 9)
      .lineTo(x * 0.72, 43)
      .stroke(outline(SHADES.raspberryDark, 3.5));
  }
  g.poly([-24, 9, -18, 9, -15, 43, -18, 43]).fill({ color: 0xffffff, alpha: 0.3 });
  // Three tiers of frosting and a curl on top.
  g.roundRect(-35, -6, 70, 18, 9).fill(PALETTE.frosting).stroke(edge);
  g.roundRect(-27, -21, 54, 17, 8.5).fill(PALETTE.frosting).stroke(edge);
  g.roundRect(-18, -35, 36, 16, 8).fill(PALETTE.frosting).stroke(edge);
  g.moveTo(-9, -33).quadraticCurveTo(-4, -47, 6, -47).quadraticCurveTo(0, -40, 8, -33).closePath();
  g.fill(PALETTE.frosting).stroke(edge);
  // Sprinkles.
  const sprinkle = (x1: number, y1: number, x2: number, y2: number, color: number) =>
    g.moveTo(x1, y1).lineTo(x2, y2).stroke({ width: 4, color, cap: 'round' });
  sprinkle(-22, 2, -17, 5, PALETTE.raspberry);
  sprinkle(14, 0, 20, -2, PALETTE.pistachio);
  sprinkle(-4, -13, 1, -10, PALETTE.gold);
  sprinkle(10, -28, 13, -24, PALETTE.raspberry);
  sprinkle(-13, -16, -15, -11, PALETTE.pistachio);
  sprinkle(22, -12, 18, -9, PALETTE.gold);
  // Shine.
  g.roundRect(-28, -2, 14, 4, 2).fill(shine);
  g.roundRect(-20, -17, 10, 4, 2).fill(shine);
}

function macaron(g: GraphicsContext): void {
  const edge = outline();
  // Bottom shell.
  g.moveTo(-40, 10)
    .lineTo(40, 10)
    .bezierCurveTo(40, 38, -40, 38, -40, 10)
    .closePath()
    .fill(SHADES.pistachioDeep)
    .stroke(edge);
  // Cream filling.
  g.roundRect(-37, -3, 74, 15, 7).fill(PALETTE.frosting).stroke(edge);
  // Top shell, and its ruffled foot.
  g.moveTo(-42, -4).bezierCurveTo(-42, -48, 42, -48, 42, -4).closePath().fill(PALETTE.pistachio).stroke(edge);
  g.roundRect(-42, -9, 84, 8, 4).fill(SHADES.pistachioDeep).stroke(edge);
  for (let x = -34; x <= 34; x += 8.5) g.circle(x, -5, 1.6).fill(SHADES.pistachioDark);
  // Shine.
  g.moveTo(-30, -14)
    .quadraticCurveTo(-26, -32, -6, -34)
    .quadraticCurveTo(-22, -27, -24, -13)
    .closePath()
    .fill({ color: 0xffffff, alpha: 0.7 });
  g.roundRect(-30, 20, 18, 4, 2).fill({ color: 0xffffff, alpha: 0.35 });
}

function donut(g: GraphicsContext): void {
  const edge = outline();
  g.circle(0, 2, 42).fill(SHADES.dough).stroke(edge);
  // Wavy strawberry icing.
  const icing: number[] = [];
  for (let i = 0; i < 56; i++) {
    const a = (i / 56) * Math.PI * 2;
    const r = 34 + 3 * Math.sin(a * 7) + 1.5 * Math.sin(a * 3 + 1);
    icing.push(Math.cos(a) * r, Math.sin(a) * r - 1);
  }
  g.poly(icing).fill(SHADES.icingPink).stroke(outline(PALETTE.chocolate, 3));
  // The hole: dough rim, then cut through.
  g.circle(0, 0, 14).fill(SHADES.dough).stroke(outline(PALETTE.chocolate, 3));
  g.circle(0, 0, 14).fill(SHADES.dough).circle(0, 0, 10).cut();
  g.circle(0, 0, 10).stroke(edge);
  // Sprinkles round the ring.
  const colors = [PALETTE.frosting, PALETTE.gold, PALETTE.pistachio, 0x8fd3f4, PALETTE.chocolate];
  for (let i = 0; i < 11; i++) {
    const a = (i / 11) * Math.PI * 2 + 0.3;
    const r = 23 + (i % 3) * 2.5;
    const x = Math.cos(a) * r;
    const y = Math.sin(a) * r - 1;
    const t = a * 1.7 + i;
    g.moveTo(x - Math.cos(t) * 3, y - Math.sin(t) * 3)
      .lineTo(x + Math.cos(t) * 3, y + Math.sin(t) * 3)
      .stroke({ width: 3.5, color: colors[i % colors.length], cap: 'round' });
  }
  // Shine.
  g.moveTo(-28, -14)
    .quadraticCurveTo(-22, -28, -8, -31)
    .quadraticCurveTo(-19, -24, -23, -12)
    .closePath()
    .fill({ color: 0xffffff, alpha: 0.65 });
}

function cherry(g: GraphicsContext): void {
  const edge = outline();
  // Stems meet at the top, with a leaf.
  g.moveTo(-16, 8).quadraticCurveTo(-10, -20, 6, -36).stroke(outline(PALETTE.chocolate, 8));
  g.moveTo(17, 13).quadraticCurveTo(14, -14, 6, -36).stroke(outline(PALETTE.chocolate, 8));
  g.moveTo(-16, 8).quadraticCurveTo(-10, -20, 6, -36).stroke(outline(0x7a9a3a, 4));
  g.moveTo(17, 13).quadraticCurveTo(14, -14, 6, -36).stroke(outline(0x7a9a3a, 4));
  g.moveTo(6, -36)
    .quadraticCurveTo(18, -50, 38, -40)
    .quadraticCurveTo(24, -26, 6, -36)
    .closePath()
    .fill(SHADES.pistachioDeep)
    .stroke(edge);
  g.moveTo(10, -37).quadraticCurveTo(22, -41, 32, -40).stroke(outline(SHADES.pistachioDark, 2.5));
  // The two cherries.
  for (const [x, y] of [
    [-17, 22],
    [17, 27],
  ] as const) {
    g.circle(x, y, 18).fill(SHADES.cherry).stroke(edge);
    g.circle(x + 5, y + 5, 10).fill({ color: 0x9e1328, alpha: 0.45 });
    g.moveTo(x - 11, y - 2)
      .quadraticCurveTo(x - 10, y - 12, x - 1, y - 13)
      .quadraticCurveTo(x - 7, y - 8, x - 8, y)
      .closePath()
      .fill({ color: 0xffffff, alpha: 0.8 });
  }
}

/** Points of an ellipse turned by `angle` radians (GraphicsContext ellipses are axis-aligned). */
function turnedEllipse(x: number, y: number, rx: number, ry: number, angle: number): number[] {
  const points: number[] = [];
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  for (let i = 0; i < 28; i++) {
    const t = (i / 28) * Math.PI * 2;
    const ex = Math.cos(t) * rx;
    const ey = Math.sin(t) * ry;
    points.push(x + ex * cos - ey * sin, y + ex * sin + ey * cos);
  }
  return points;
}

function croissant(g: GraphicsContext): void {
  const edge = outline(SHADES.croissantDark, OUTLINE);
  // Rolled lobes on an arch whose horns curl down, drawn from the horns inwards so the
  // fat middle lies on top. Each lobe is long across the arch, like the rolled dough.
  const cx = 0;
  const cy = 18;
  const R = 29;
  const lobe = (deg: number, across: number, along: number) => {
    const a = (deg * Math.PI) / 180;
    const x = cx + Math.cos(a) * R;
    const y = cy + Math.sin(a) * R;
    g.poly(turnedEllipse(x, y, across, along, a))
      .fill(SHADES.croissant)
      .stroke(edge);
    const hx = cx + Math.cos(a) * (R + across * 0.35);
    const hy = cy + Math.sin(a) * (R + across * 0.35);
    g.poly(turnedEllipse(hx, hy, across * 0.4, along * 0.45, a)).fill({ color: SHADES.croissantLight, alpha: 0.9 });
  };
  for (const [deg, across, along] of [
    [-207, 8, 4.5],
    [-182, 9.5, 9],
    [-153, 14, 12],
    [-122, 17.5, 14],
  ] as const) {
    lobe(deg, across, along);
    lobe(-180 - deg, across, along);
  }
  lobe(-90, 20, 16);
  g.ellipse(-5, -27, 7, 3.5).fill({ color: 0xffffff, alpha: 0.6 });
}

const DRAWINGS: Record<SymbolName, (g: GraphicsContext) => void> = {
  bell,
  cupcake,
  macaron,
  donut,
  cherry,
  croissant,
};

const contexts = new Map<string, GraphicsContext>();

function shared(key: string, draw: (g: GraphicsContext) => void): GraphicsContext {
  let context = contexts.get(key);
  if (!context) {
    context = new GraphicsContext();
    draw(context);
    contexts.set(key, context);
  }
  return context;
}

function scaled(context: GraphicsContext, scale: number): Container {
  const container = new Container();
  const graphics = new Graphics(context);
  graphics.scale.set(scale);
  container.addChild(graphics);
  return container;
}

/** A wheel symbol centred on (0, 0), fitting in a `size` × `size` box. */
export function createSymbol(symbol: SymbolName, size: number): Container {
  const container = scaled(shared(symbol, DRAWINGS[symbol]), size / DESIGN);
  container.label = `symbol:${symbol}`;
  return container;
}

function pipingTip(g: GraphicsContext): void {
  const edge = outline();
  // Cream bag, twisted closed at the top.
  g.moveTo(-30, -90)
    .lineTo(30, -90)
    .quadraticCurveTo(28, -60, 13, -44)
    .lineTo(-13, -44)
    .quadraticCurveTo(-28, -60, -30, -90)
    .closePath()
    .fill(PALETTE.frosting)
    .stroke(edge);
  g.moveTo(-8, -86).quadraticCurveTo(-12, -66, -6, -50).stroke(outline(0xe6c9a0, 3));
  g.moveTo(10, -84).quadraticCurveTo(14, -68, 8, -52).stroke(outline(0xe6c9a0, 3));
  g.roundRect(-22, -98, 44, 11, 5.5).fill(PALETTE.strawberry).stroke(edge);
  // Raspberry coupler ring.
  g.roundRect(-16, -47, 32, 9, 4).fill(PALETTE.raspberry).stroke(edge);
  // Metal star tip, pointing at (0, 0).
  g.poly([-12, -38, 12, -38, 0, 0]).fill(SHADES.silver).stroke(edge);
  g.poly([2, -38, 12, -38, 0, 0]).fill({ color: SHADES.silverDark, alpha: 0.6 });
  g.moveTo(-5, -37).lineTo(0, -4).stroke(outline(SHADES.silverDark, 2));
  g.moveTo(-9, -36).lineTo(-6, -28).stroke({ width: 2.5, color: 0xffffff, cap: 'round' });
}

/**
 * The cursor: a piping bag whose tip points down. Its point is at (0, 0) and the bag
 * rises above it (y from -size to 0, x within ±0.3 × size), so place it at the rim.
 */
export function createPipingTip(size: number): Container {
  const container = scaled(shared('piping-tip', pipingTip), size / DESIGN);
  container.label = 'piping-tip';
  return container;
}

/** Confetti: a rounded sprinkle of `length` px (its width a third of that), centred on (0, 0). */
export function createSprinkle(color: number, length = 12): Container {
  const context = shared(`sprinkle:${color}`, (g) => {
    g.moveTo(-3, 0).lineTo(3, 0).stroke({ width: 3, color, cap: 'round' });
    g.moveTo(-2, -0.6).lineTo(0.5, -0.6).stroke({ width: 0.8, color: 0xffffff, alpha: 0.6, cap: 'round' });
  });
  const container = scaled(context, length / 9);
  container.label = 'sprinkle';
  return container;
}
