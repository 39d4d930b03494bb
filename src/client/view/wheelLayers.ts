import { Container, Sprite, Texture, type Renderer } from 'pixi.js';

/** The baked pictures of one cake stand, bottom to top. */
export type WheelPart = 'plate' | 'face' | 'glow' | 'gloss' | 'cursor';
const PARTS: readonly WheelPart[] = ['plate', 'face', 'glow', 'gloss', 'cursor'];

/** Where a part goes, in CSS pixels from the wheel's centre. */
export interface PartPlacement {
  /** The point the part turns about (the hub for the face, the top of the bag for the cursor). */
  pivot: { x: number; y: number };
  /** The picture's top-left corner, from the pivot. */
  offset: { x: number; y: number };
}

/**
 * Shows a wheel's pictures and moves them. WheelView decides what they look like and
 * where they turn (from the spin math); a WheelLayers only puts them on screen.
 */
export interface WheelLayers {
  place(x: number, y: number): void;
  /** Shows `texture` as `part` (the layers own it from now on). */
  show(part: WheelPart, texture: Texture, placement: PartPlacement): void;
  turn(part: 'face' | 'cursor', radians: number): void;
  setGlow(visible: boolean, alpha: number): void;
}

/**
 * Inside the Pixi scene, one sprite per part: the WebGL path, where the GPU turns the
 * faces and all four stands batch into a handful of draw calls.
 */
export class PixiWheelLayers implements WheelLayers {
  readonly root = new Container();
  private readonly holders = new Map<WheelPart, Container>();
  private readonly sprites = new Map<WheelPart, Sprite>();

  constructor() {
    for (const part of PARTS) {
      const holder = new Container();
      const sprite = new Sprite();
      holder.addChild(sprite);
      this.root.addChild(holder);
      this.holders.set(part, holder);
      this.sprites.set(part, sprite);
    }
    this.holders.get('glow')!.visible = false;
  }

  place(x: number, y: number): void {
    this.root.position.set(x, y);
  }

  show(part: WheelPart, texture: Texture, { pivot, offset }: PartPlacement): void {
    const sprite = this.sprites.get(part)!;
    const old = sprite.texture;
    sprite.texture = texture;
    sprite.position.set(offset.x, offset.y);
    this.holders.get(part)!.position.set(pivot.x, pivot.y);
    if (old !== Texture.EMPTY && old !== texture) old.destroy(true);
  }

  turn(part: 'face' | 'cursor', radians: number): void {
    this.holders.get(part)!.rotation = radians;
  }

  setGlow(visible: boolean, alpha: number): void {
    const glow = this.holders.get('glow')!;
    glow.visible = visible;
    glow.alpha = alpha;
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
  private readonly turned = new Map<WheelPart, number>();

  constructor(private readonly renderer: Renderer) {
    this.root.className = 'wheel-layers';
    for (const part of PARTS) {
      const canvas = document.createElement('canvas');
      canvas.className = `wheel-${part}`;
      canvas.width = canvas.height = 0;
      this.root.appendChild(canvas);
      this.canvases.set(part, canvas);
    }
    this.setGlow(false, 1);
  }

  place(x: number, y: number): void {
    this.root.style.transform = `translate(${x}px, ${y}px)`;
  }

  show(part: WheelPart, texture: Texture, { pivot, offset }: PartPlacement): void {
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
    texture.destroy(true);
  }

  turn(part: 'face' | 'cursor', radians: number): void {
    if (this.turned.get(part) === radians) return;
    this.turned.set(part, radians);
    this.canvases.get(part)!.style.transform = radians === 0 ? '' : `rotate(${radians}rad)`;
  }

  setGlow(visible: boolean, alpha: number): void {
    const style = this.canvases.get('glow')!.style;
    style.visibility = visible ? '' : 'hidden';
    style.opacity = String(alpha);
  }
}
