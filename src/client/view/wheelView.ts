import gsap from 'gsap';
import { Container, Graphics, Texture, type Renderer } from 'pixi.js';
import { createPipingTip } from '../art/symbols.ts';
import { PALETTE } from '../art/palette.ts';
import type { Segment } from '../../rules/unit.ts';
import { boundaryCount, SEGMENT_DEG, spinTarget, type SpinPlan } from '../game/spin.ts';
import { buildWheelFace } from './wheelFace.ts';
import type { PartPlacement, WheelLayers, WheelPart } from './wheelLayers.ts';

const DEG = Math.PI / 180;

/**
 * One cake stand: the turning face, the plate under it, a still gloss, the glow for a
 * win and the piping-tip cursor that flicks as each sugar pearl passes it. Each part
 * is baked once per unit and size into a picture; `layers` shows them (in the Pixi
 * scene, or as compositor layers beside it) and a spinning frame only turns them.
 */
export class WheelView {
  private radius = 0;
  private segments: readonly Segment[] | null = null;
  private deg = 0;
  private lastBoundary = 0;
  private timeline: gsap.core.Timeline | null = null;
  private readonly glow = { visible: false, alpha: 1 };
  private glowTween: gsap.core.Tween | null = null;

  constructor(
    private readonly renderer: Renderer,
    private readonly layers: WheelLayers,
    private readonly onTick: () => void,
  ) {}

  get rotationDeg(): number {
    return this.deg;
  }

  get spinning(): boolean {
    return this.timeline !== null;
  }

  place(x: number, y: number, radius: number): void {
    this.layers.place(x, y);
    if (radius === this.radius) return;
    this.radius = radius;
    for (const draw of this.pictures()) draw();
  }

  /**
   * place(), with `between()` awaited before each of the stand's five pictures: the first
   * layout draws one picture per task, so that no task of the start holds the page long.
   */
  async placeByPictures(x: number, y: number, radius: number, between: () => Promise<void>): Promise<void> {
    this.layers.place(x, y);
    if (radius === this.radius) return;
    this.radius = radius;
    for (const draw of this.pictures()) {
      await between();
      draw();
    }
  }

  /** The stand's pictures at its radius, each drawn by one call: plate, gloss, glow, cursor, face. */
  private pictures(): (() => void)[] {
    return [
      () => this.drawPlate(),
      () => this.drawGloss(),
      () => this.drawGlow(),
      () => this.drawCursor(),
      () => this.redrawFace(),
    ];
  }

  /**
   * Bakes every picture again, as they stand: the GPU lost them with its context (a
   * phone backgrounded, a driver reset). The angle, a spin in progress and the glow are
   * this object's own state, so the stand comes back where it is, turning if it was.
   */
  redraw(): void {
    if (this.radius <= 0) return;
    for (const draw of this.pictures()) draw();
    this.layers.setGlow(this.glow.visible, this.glow.alpha);
    this.setDeg(this.deg);
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
  spin(plan: SpinPlan): Promise<void> {
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
      if (plan.pace === 'reduced') {
        tl.to(angle, { deg: plan.to, duration: plan.durationS, ease: 'power2.out', onUpdate: update });
      } else {
        // A kick back, the long run with a little overshoot, then a settle onto the target
        // (a quick spin makes the same three moves, shorter: see planSpin).
        const overshoot = 3 + (plan.durationS % 1) * 3;
        tl.to(angle, { deg: plan.from - 10, duration: plan.kickS, ease: 'power2.out', onUpdate: update })
          .to(angle, { deg: plan.to + overshoot, duration: plan.durationS, ease: 'power3.out', onUpdate: update })
          .to(angle, { deg: plan.to, duration: plan.settleS, ease: 'sine.inOut', onUpdate: update });
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
    this.layers.setGlow(on, 1);
    if (on && !reducedMotion) {
      this.glowTween = gsap.to(this.glow, {
        alpha: 0.45,
        duration: 0.7,
        yoyo: true,
        repeat: 5,
        onUpdate: () => this.layers.setGlow(this.glow.visible, this.glow.alpha),
      });
    }
  }

  private stopAnimations(): void {
    this.timeline?.kill();
    this.timeline = null;
  }

  private setDeg(deg: number): void {
    this.deg = deg;
    this.layers.turn('face', deg * DEG);
    const boundary = boundaryCount(deg);
    if (boundary !== this.lastBoundary) {
      this.lastBoundary = boundary;
      if (this.timeline) this.onTick();
    }
    // The tip bends back as a pearl pushes it, then springs straight (a pure function of
    // the angle, so a frozen frame always looks the same).
    const within = ((((deg + SEGMENT_DEG / 2) % SEGMENT_DEG) + SEGMENT_DEG) % SEGMENT_DEG) / SEGMENT_DEG;
    const push = within < 0.25 ? 1 - within / 0.25 : 0;
    this.layers.turn('cursor', this.timeline ? -0.22 * push : 0);
  }

  private drawPlate(): void {
    const r = this.radius;
    const plate = new Graphics();
    plate.circle(0, r * 0.07, r * 1.08).fill({ color: 0x12060f, alpha: 0.45 });
    plate.circle(0, 0, r * 1.07).fill(PALETTE.frosting);
    plate.circle(0, 0, r * 1.07).stroke({ width: Math.max(1, r * 0.015), color: 0xd9c3a5 });
    for (let k = 0; k < 24; k++) {
      const a = k * 15 * DEG;
      plate.circle(Math.cos(a) * r * 1.035, Math.sin(a) * r * 1.035, r * 0.022).fill(0xf1dcc0);
    }
    this.bake('plate', plate);
  }

  private drawGloss(): void {
    const r = this.radius;
    const gloss = new Graphics();
    gloss
      .arc(0, 0, r * 0.8, 200 * DEG, 250 * DEG)
      .stroke({ width: r * 0.07, color: 0xffffff, alpha: 0.22, cap: 'round' });
    gloss
      .arc(0, 0, r * 0.8, 258 * DEG, 266 * DEG)
      .stroke({ width: r * 0.07, color: 0xffffff, alpha: 0.22, cap: 'round' });
    this.bake('gloss', gloss);
  }

  private drawGlow(): void {
    const r = this.radius;
    const glow = new Graphics();
    const a0 = (-90 - SEGMENT_DEG / 2) * DEG;
    const a1 = (-90 + SEGMENT_DEG / 2) * DEG;
    const inner = r * 0.93;
    glow.moveTo(0, 0).arc(0, 0, inner, a0, a1).closePath().fill({ color: PALETTE.gold, alpha: 0.28 });
    glow
      .moveTo(0, 0)
      .arc(0, 0, inner, a0, a1)
      .closePath()
      .stroke({ width: Math.max(3, r * 0.045), color: PALETTE.gold, join: 'round' });
    this.bake('glow', glow);
  }

  private drawCursor(): void {
    const r = this.radius;
    const size = r * 0.42;
    const tip = new Container();
    const drawing = createPipingTip(size);
    // Pivot at the top of the bag so a flick swings the tip sideways.
    drawing.position.set(0, size);
    tip.addChild(drawing);
    this.bake('cursor', tip, { x: 0, y: -r * 0.84 - size });
  }

  /** Draws `content` once into a picture for `part`, placed as it was drawn about `pivot`. */
  private bake(part: WheelPart, content: Container, pivot = { x: 0, y: 0 }): void {
    const bounds = content.getLocalBounds();
    const texture = this.renderer.generateTexture({
      target: content,
      resolution: this.renderer.resolution,
      antialias: true,
    });
    content.destroy({ children: true });
    this.layers.show(part, texture, { pivot, offset: { x: bounds.x, y: bounds.y } });
  }

  private redrawFace(): void {
    if (this.radius <= 0) return;
    const content = buildWheelFace(this.segments, this.radius);
    const texture: Texture = this.renderer.generateTexture({
      target: content,
      resolution: this.renderer.resolution,
      antialias: true,
    });
    content.destroy({ children: true });
    // Centred on the hub, as a sprite anchored at its middle would be.
    const placement: PartPlacement = {
      pivot: { x: 0, y: 0 },
      offset: { x: -texture.width / 2, y: -texture.height / 2 },
    };
    this.layers.show('face', texture, placement);
    this.layers.turn('face', this.deg * DEG);
  }
}
