import { Container, Sprite, Texture, type Renderer } from 'pixi.js';

/**
 * The baked pictures of one cake stand, bottom to top: the plate, the face, its
 * motion-blurred twin (shown at speed), the light on the winning segment and its symbol
 * (both turn with the face), the still gloss and the cursor.
 */
export type WheelPart = 'plate' | 'face' | 'blur' | 'glow' | 'symbol' | 'gloss' | 'cursor';
const PARTS: readonly WheelPart[] = ['plate', 'face', 'blur', 'glow', 'symbol', 'gloss', 'cursor'];
/** The parts that show only some of the time (hidden until given an opacity). */
export type FadingPart = 'blur' | 'glow' | 'symbol';
const FADING: readonly WheelPart[] = ['blur', 'glow', 'symbol'];
export type TurningPart = Exclude<WheelPart, 'plate' | 'gloss'>;

/** Where a part goes, in CSS pixels from the wheel's centre. */
export interface PartPlacement {
  /** The point the part turns about (the hub for the face, the top of the bag for the cursor). */
  pivot: { x: number; y: number };
  /** The picture's top-left corner, from the pivot. */
  offset: { x: number; y: number };
  /** The point it grows about, from the pivot (its middle when omitted: no part grows but the symbol). */
  anchor?: { x: number; y: number };
}

/**
 * Shows a wheel's pictures and moves them. WheelView decides what they look like and
 * where they turn (from the spin math); a WheelLayers only puts them on screen.
 */
export interface WheelLayers {
  place(x: number, y: number): void;
  /** Shows `texture` as `part`; the caller keeps it alive while it is shown, and destroys it. */
  show(part: WheelPart, texture: Texture, placement: PartPlacement): void;
  /** Turns `part` about its pivot, grown by `scale` about its anchor. */
  turn(part: TurningPart, radians: number, scale?: number): void;
  /** A fading part's opacity; 0 hides it. */
  setAlpha(part: FadingPart, alpha: number): void;
}

/**
 * Inside the Pixi scene, one sprite per part: the WebGL path, where the GPU turns the
 * faces and all four stands batch into a handful of draw calls.
 */
export class PixiWheelLayers implements WheelLayers {
  readonly root = new Container();
  private readonly holders = new Map<WheelPart, Container>();
  private readonly growers = new Map<WheelPart, Container>();
  private readonly sprites = new Map<WheelPart, Sprite>();

  constructor() {
    for (const part of PARTS) {
      const holder = new Container();
      const grower = new Container();
      const sprite = new Sprite();
      grower.addChild(sprite);
      holder.addChild(grower);
      this.root.addChild(holder);
      this.holders.set(part, holder);
      this.growers.set(part, grower);
      this.sprites.set(part, sprite);
    }
    for (const part of FADING) this.holders.get(part)!.visible = false;
  }

  place(x: number, y: number): void {
    this.root.position.set(x, y);
  }

  show(part: WheelPart, texture: Texture, { pivot, offset, anchor = { x: 0, y: 0 } }: PartPlacement): void {
    const sprite = this.sprites.get(part)!;
    sprite.texture = texture;
    sprite.position.set(offset.x - anchor.x, offset.y - anchor.y);
    this.growers.get(part)!.position.set(anchor.x, anchor.y);
    this.holders.get(part)!.position.set(pivot.x, pivot.y);
  }

  turn(part: TurningPart, radians: number, scale = 1): void {
    this.holders.get(part)!.rotation = radians;
    this.growers.get(part)!.scale.set(scale);
  }

  setAlpha(part: FadingPart, alpha: number): void {
    const holder = this.holders.get(part)!;
    holder.visible = alpha > 0;
    holder.alpha = alpha;
  }
}

/**
 * Outside the Pixi canvas, one small <canvas> per part, turned by a CSS transform: the
 * path for Pixi's 2D canvas renderer (no GPU). There, redrawing four rotated faces
 * into the big canvas every frame is what held the game under 60 fps: Chromium
 * rasterises a 2D canvas' draws on the page's main thread. A turning face on a
 * compositor layer of its own is drawn once per unit and size, and turning it only
 * changes a transform, which the compositor applies off the main thread.
 */
export class DomWheelLayers implements WheelLayers {
  readonly root = document.createElement('div');
  private readonly canvases = new Map<WheelPart, HTMLCanvasElement>();
  private readonly turned = new Map<WheelPart, string>();
  private readonly anchors = new Map<WheelPart, { x: number; y: number }>();
  private readonly alphas = new Map<WheelPart, number>();

  constructor(private readonly renderer: Renderer) {
    this.root.className = 'wheel-layers';
    for (const part of PARTS) {
      const canvas = document.createElement('canvas');
      canvas.className = `wheel-${part}`;
      canvas.width = canvas.height = 0;
      this.root.appendChild(canvas);
      this.canvases.set(part, canvas);
    }
    for (const part of FADING) this.setAlpha(part as FadingPart, 0);
  }

  place(x: number, y: number): void {
    this.root.style.transform = `translate(${x}px, ${y}px)`;
  }

  show(part: WheelPart, texture: Texture, { pivot, offset, anchor = { x: 0, y: 0 } }: PartPlacement): void {
    const picture = this.renderer.extract.canvas(texture) as HTMLCanvasElement;
    const canvas = this.canvases.get(part)!;
    canvas.width = picture.width;
    canvas.height = picture.height;
    canvas.getContext('2d')!.drawImage(picture, 0, 0);
    const style = canvas.style;
    style.width = `${texture.width}px`;
    style.height = `${texture.height}px`;
    style.left = `${pivot.x + offset.x}px`;
    style.top = `${pivot.y + offset.y}px`;
    style.transformOrigin = `${-offset.x}px ${-offset.y}px`;
    this.anchors.set(part, anchor);
  }

  turn(part: TurningPart, radians: number, scale = 1): void {
    const a = this.anchors.get(part) ?? { x: 0, y: 0 };
    // Turned about the pivot (the transform origin), grown about the anchor.
    const grow = scale === 1 ? '' : ` translate(${a.x}px, ${a.y}px) scale(${scale}) translate(${-a.x}px, ${-a.y}px)`;
    const transform = radians === 0 && grow === '' ? '' : `rotate(${radians}rad)${grow}`;
    if (this.turned.get(part) === transform) return;
    this.turned.set(part, transform);
    this.canvases.get(part)!.style.transform = transform;
  }

  setAlpha(part: FadingPart, alpha: number): void {
    if (this.alphas.get(part) === alpha) return;
    this.alphas.set(part, alpha);
    const style = this.canvases.get(part)!.style;
    style.visibility = alpha > 0 ? '' : 'hidden';
    style.opacity = String(alpha);
  }
}
