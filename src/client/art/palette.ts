/**
 * SPINCAKE's named colours (art.md), as 0xRRGGBB numbers for Pixi.
 * Use `css()` where a CSS string is needed (loading screen, HTML overlays).
 */
export const PALETTE = {
  /** Background gradient, top → bottom. */
  cocoa: 0x2b1431,
  plum: 0x4a1f3d,
  /** Segments alternate cream and strawberry icing. */
  cream: 0xfbe9c8,
  strawberry: 0xf5a3bf,
  /** Rims, outlines, text on cream. */
  chocolate: 0x5a2d1a,
  /** Enabled wheel « GO ». */
  pistachio: 0xa8d5a2,
  /** Bells and wins. */
  gold: 0xf2c14e,
  /** Common « GO » and « Jouer ». */
  raspberry: 0xd63d6c,
  /** Frosting white: highlights and the lightest icing. */
  frosting: 0xfff7ea,
} as const;

/** Darker and lighter companions used inside the symbols (shading, outlines). */
export const SHADES = {
  goldDark: 0x9a5b12,
  goldDeep: 0xd99a2b,
  goldLight: 0xffe08a,
  raspberryDark: 0xa82a52,
  pistachioDeep: 0x7fbf76,
  pistachioDark: 0x4f8a4a,
  dough: 0xe0a25a,
  doughLight: 0xf3c27f,
  icingPink: 0xee7aa6,
  cherry: 0xd7263d,
  croissant: 0xd98d3a,
  croissantLight: 0xf2b866,
  croissantDark: 0x9a5520,
  silver: 0xdfe4ea,
  silverDark: 0x9aa4af,
} as const;

/** Confetti colours for win celebrations. */
export const SPRINKLE_COLORS: readonly number[] = [
  PALETTE.gold,
  PALETTE.raspberry,
  PALETTE.pistachio,
  PALETTE.strawberry,
  PALETTE.cream,
  0x8fd3f4,
];

/** 0xRRGGBB → '#rrggbb'. */
export function css(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}
