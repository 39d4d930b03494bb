import { Container, Graphics, Text } from 'pixi.js';
import { createSymbol } from '../art/symbols.ts';
import { FONT_FAMILY } from '../art/font.ts';
import { PALETTE } from '../art/palette.ts';
import type { Segment, SymbolName } from '../../rules/unit.ts';
import { SEGMENT_DEG } from '../game/spin.ts';
import { pointsFontPx } from '../ui/layout.ts';

const DEG = Math.PI / 180;
/** A wheel before any unit: cakes without points, no bell (nothing to read into it). */
const IDLE_SYMBOLS: SymbolName[] = ['cupcake', 'macaron', 'donut', 'cherry', 'croissant', 'macaron'];

/**
 * The turning part of one cake stand, drawn once per unit and size: six wedges of
 * cream and strawberry icing, points near the rim, the symbol nearer the centre,
 * segment i centred on i × 60° clockwise from the top.
 */
export function buildWheelFace(segments: readonly Segment[] | null, radius: number): Container {
  const face = new Container();
  const g = new Graphics();
  // Chocolate rim with a lighter inner lip.
  g.circle(0, 0, radius).fill(PALETTE.chocolate);
  g.circle(0, 0, radius * 0.955).fill(0x7a4128);
  const inner = radius * 0.93;
  for (let i = 0; i < 6; i++) {
    const mid = -90 + i * SEGMENT_DEG;
    const a0 = (mid - SEGMENT_DEG / 2) * DEG;
    const a1 = (mid + SEGMENT_DEG / 2) * DEG;
    const color = i % 2 === 0 ? PALETTE.cream : PALETTE.strawberry;
    g.moveTo(0, 0).arc(0, 0, inner, a0, a1).closePath().fill(color);
    // A soft icing scallop along the rim of each wedge.
    g.moveTo(0, 0)
      .arc(0, 0, inner, a0, a1)
      .arc(0, 0, inner * 0.9, a1, a0, true)
      .closePath()
      .fill({ color: 0xffffff, alpha: 0.18 });
  }
  for (let i = 0; i < 6; i++) {
    const a = (-90 + (i + 0.5) * SEGMENT_DEG) * DEG;
    g.moveTo(Math.cos(a) * radius * 0.16, Math.sin(a) * radius * 0.16)
      .lineTo(Math.cos(a) * inner, Math.sin(a) * inner)
      .stroke({ width: Math.max(1.5, radius * 0.018), color: PALETTE.chocolate, alpha: 0.55, cap: 'round' });
    // Sugar pearls on the rim, one per boundary (they tick the cursor).
    g.circle(Math.cos(a) * radius * 0.965, Math.sin(a) * radius * 0.965, Math.max(2, radius * 0.035)).fill(
      PALETTE.frosting,
    );
  }
  face.addChild(g);

  const symbolSize = radius * 0.34;
  const fontSize = pointsFontPx(radius);
  for (let i = 0; i < 6; i++) {
    const angle = i * SEGMENT_DEG * DEG;
    const segment = segments?.[i];
    const holder = new Container();
    holder.rotation = angle;
    const symbol = createSymbol(segment?.symbol ?? IDLE_SYMBOLS[i]!, symbolSize);
    symbol.position.set(0, -radius * 0.42);
    if (!segments) symbol.alpha = 0.55;
    holder.addChild(symbol);
    if (segment) {
      const points = new Text({
        text: String(segment.points),
        style: {
          fontFamily: FONT_FAMILY,
          fontWeight: '700',
          fontSize,
          fill: PALETTE.chocolate,
          letterSpacing: 0.5,
        },
      });
      points.anchor.set(0.5);
      points.position.set(0, -radius * 0.735);
      holder.addChild(points);
    }
    face.addChild(holder);
  }

  // Frosted hub.
  const hub = new Graphics();
  hub.circle(0, 0, radius * 0.17).fill(PALETTE.chocolate);
  hub.circle(0, 0, radius * 0.145).fill(PALETTE.frosting);
  hub.circle(-radius * 0.04, -radius * 0.045, radius * 0.05).fill({ color: 0xffffff, alpha: 0.9 });
  for (let k = 0; k < 8; k++) {
    const a = (k * 45 + 20) * DEG;
    hub
      .circle(Math.cos(a) * radius * 0.1, Math.sin(a) * radius * 0.1, Math.max(1, radius * 0.014))
      .fill(k % 2 ? PALETTE.raspberry : PALETTE.pistachio);
  }
  face.addChild(hub);
  return face;
}
