import gsap from 'gsap';
import { Container, Graphics, ImageSource, Sprite, Texture, type Renderer } from 'pixi.js';
import { createPipingTip } from '../art/symbols.ts';
import { PALETTE } from '../art/palette.ts';
import type { Segment } from '../../rules/unit.ts';
import { boundaryCount, SEGMENT_DEG, spinTarget, type SpinPlan } from '../game/spin.ts';
import { buildWheelFace } from './wheelFace.ts';

const DEG = Math.PI / 180;

/**
 * One cake stand: the turning face (a cached texture, so a spinning frame costs one
 * sprite), the plate under it, a still gloss, the glow for a win and the piping-tip
 * cursor that flicks as each sugar pearl passes it.
 */
export class WheelView {
  readonly root = new Container();
  private readonly plate = new Sprite();
  private readonly face = new Sprite();
  private readonly gloss = new Sprite();
  private readonly glow = new Graphics();
  private readonly cursor = new Sprite();
  private readonly cursorHolder = new Container();
  private radius = 0;
  private segments: readonly Segment[] | null = null;
  private deg = 0;
  private lastBoundary = 0;
  private timeline: gsap.core.Timeline | null = null;
  private glowTween: gsap.core.Tween | null = null;

  constructor(
    private readonly renderer: Renderer,
    private readonly onTick: () => void,
    private readonly onRedraw: () => void = () => {},
  ) {
    this.face.anchor.set(0.5);
    this.glow.visible = false;
    this.cursorHolder.addChild(this.cursor);
    this.root.addChild(this.plate, this.face, this.glow, this.gloss, this.cursorHolder);
  }

  get rotationDeg(): number {
    return this.deg;
  }

  get spinning(): boolean {
    return this.timeline !== null;
  }

  place(x: number, y: number, radius: number): void {
    this.root.position.set(x, y);
    if (radius === this.radius) return;
    this.radius = radius;
    this.drawStatic();
    this.redrawFace();
  }

  showSegments(segments: readonly Segment[] | null): void {
    this.segments = segments;
    this.redrawFace();
  }

  /** Straight onto a segment with no animation (a resumed play, a history replay). */
  showStopped(stop: number, offset = 0): void {
    this.stopAnimations();
    this.setDeg(spinTarget(this.deg, stop, 0, offset));
  }

  /** Turns the wheel by `plan`; resolves once it rests on the target. */
  spin(plan: SpinPlan, reducedMotion: boolean): Promise<void> {
    this.stopAnimations();
    const angle = { deg: this.deg };
    const update = () => this.setDeg(angle.deg);
    return new Promise((resolve) => {
      const tl = gsap.timeline({
        onComplete: () => {
          this.timeline = null;
          resolve();
        },
      });
      if (reducedMotion) {
        tl.to(angle, { deg: plan.to, duration: plan.durationS, ease: 'power2.out', onUpdate: update });
      } else {
        // A kick back, the long run with a little overshoot, then a settle onto the target.
        const overshoot = 3 + (plan.durationS % 1) * 3;
        tl.to(angle, { deg: plan.from - 10, duration: 0.22, ease: 'power2.out', onUpdate: update })
          .to(angle, { deg: plan.to + overshoot, duration: plan.durationS, ease: 'power3.out', onUpdate: update })
          .to(angle, { deg: plan.to, duration: 0.45, ease: 'sine.inOut', onUpdate: update });
      }
      this.timeline = tl;
    });
  }

  /** Jump to the end of the spin (test clock, « finish spins »). */
  finishSpin(): void {
    this.timeline?.progress(1);
  }

  /** A steady glow under reduced motion: no pulsing (no flashing) for those who asked. */
  setGlow(on: boolean, reducedMotion = false): void {
    this.glowTween?.kill();
    this.glowTween = null;
    this.glow.visible = on;
    this.glow.alpha = 1;
    if (on && !reducedMotion) {
      this.glowTween = gsap.to(this.glow, { alpha: 0.45, duration: 0.7, yoyo: true, repeat: 5 });
    }
  }

  destroy(): void {
    this.stopAnimations();
    for (const sprite of [this.face, this.plate, this.gloss, this.cursor]) sprite.texture.destroy(true);
    this.root.destroy({ children: true });
  }

  private stopAnimations(): void {
    this.timeline?.kill();
    this.timeline = null;
  }

  private setDeg(deg: number): void {
    this.deg = deg;
    this.face.rotation = deg * DEG;
    const boundary = boundaryCount(deg);
    if (boundary !== this.lastBoundary) {
      this.lastBoundary = boundary;
      if (this.timeline) this.onTick();
    }
    // The tip bends back as a pearl pushes it, then springs straight (a pure function of
    // the angle, so a frozen frame always looks the same).
    const within = ((((deg + SEGMENT_DEG / 2) % SEGMENT_DEG) + SEGMENT_DEG) % SEGMENT_DEG) / SEGMENT_DEG;
    const push = within < 0.25 ? 1 - within / 0.25 : 0;
    this.cursorHolder.rotation = this.timeline ? -0.22 * push : 0;
  }

  private drawStatic(): void {
    const r = this.radius;
    const plate = new Graphics();
    plate.circle(0, r * 0.07, r * 1.08).fill({ color: 0x12060f, alpha: 0.45 });
    plate.circle(0, 0, r * 1.07).fill(PALETTE.frosting);
    plate.circle(0, 0, r * 1.07).stroke({ width: Math.max(1, r * 0.015), color: 0xd9c3a5 });
    for (let k = 0; k < 24; k++) {
      const a = k * 15 * DEG;
      plate.circle(Math.cos(a) * r * 1.035, Math.sin(a) * r * 1.035, r * 0.022).fill(0xf1dcc0);
    }
    this.bake(this.plate, plate);

    const gloss = new Graphics();
    gloss
      .arc(0, 0, r * 0.8, 200 * DEG, 250 * DEG)
      .stroke({ width: r * 0.07, color: 0xffffff, alpha: 0.22, cap: 'round' });
    gloss
      .arc(0, 0, r * 0.8, 258 * DEG, 266 * DEG)
      .stroke({ width: r * 0.07, color: 0xffffff, alpha: 0.22, cap: 'round' });
    this.bake(this.gloss, gloss);

    this.glow.clear();
    const a0 = (-90 - SEGMENT_DEG / 2) * DEG;
    const a1 = (-90 + SEGMENT_DEG / 2) * DEG;
    const inner = r * 0.93;
    this.glow.moveTo(0, 0).arc(0, 0, inner, a0, a1).closePath().fill({ color: PALETTE.gold, alpha: 0.28 });
    this.glow
      .moveTo(0, 0)
      .arc(0, 0, inner, a0, a1)
      .closePath()
      .stroke({ width: Math.max(3, r * 0.045), color: PALETTE.gold, join: 'round' });

    const size = r * 0.42;
    const tip = new Container();
    const drawing = createPipingTip(size);
    // Pivot at the top of the bag so a flick swings the tip sideways.
    drawing.position.set(0, size);
    tip.addChild(drawing);
    this.bake(this.cursor, tip);
    this.cursorHolder.position.set(0, -r * 0.84 - size);
  }

  /**
   * Still parts become one sprite each: a frame of the 2D canvas renderer then blits
   * them instead of replaying their paths, and WebGL batches them with the faces.
   */
  private bake(target: Sprite, content: Container): void {
    const bounds = content.getLocalBounds();
    const old = target.texture;
    target.texture = this.renderer.generateTexture({
      target: content,
      resolution: this.renderer.resolution,
      antialias: true,
    });
    target.position.set(bounds.x, bounds.y);
    content.destroy({ children: true });
    if (old !== Texture.EMPTY) old.destroy(true);
  }

  private redrawFace(): void {
    if (this.radius <= 0) return;
    const content = buildWheelFace(this.segments, this.radius);
    const old = this.face.texture;
    this.face.texture = this.renderer.generateTexture({
      target: content,
      resolution: this.renderer.resolution,
      antialias: true,
    });
    content.destroy({ children: true });
    if (old !== Texture.EMPTY) old.destroy(true);
    this.face.rotation = this.deg * DEG;
    if (this.renderer.name === 'canvas') void this.toBitmap(this.face.texture);
  }

  /**
   * On the 2D canvas renderer, a rotated render texture is redrawn from a canvas every
   * frame; an ImageBitmap of the same pixels is Chromium's fast path for drawImage.
   */
  private async toBitmap(generated: Texture): Promise<void> {
    if (typeof createImageBitmap !== 'function') return;
    const canvas = this.renderer.extract.canvas(generated) as HTMLCanvasElement;
    const bitmap = await createImageBitmap(canvas);
    if (this.face.texture !== generated) {
      bitmap.close();
      return;
    }
    const resolution = this.renderer.resolution;
    this.face.texture = new Texture({ source: new ImageSource({ resource: bitmap, resolution }) });
    generated.destroy(true);
    this.onRedraw();
  }
}
