import gsap from 'gsap';
import { Container, Graphics, Rectangle, Sprite, Texture, type Renderer } from 'pixi.js';
import { createPipingTip, createSymbol } from '../art/symbols.ts';
import { PALETTE } from '../art/palette.ts';
import type { Segment } from '../../rules/unit.ts';
import {
  angleAt,
  blurAmount,
  boundaryCount,
  brakeOnto,
  SEGMENT_DEG,
  segmentUnderCursor,
  spinMotion,
  spinTarget,
  velocityAt,
  type SpinMotion,
  type SpinPlan,
} from '../game/spin.ts';
import { buildWheelFace } from './wheelFace.ts';
import type { PictureShelf, Picture, ShelfEntry } from './pictureShelf.ts';
import type { PartPlacement, WheelLayers, WheelPart } from './wheelLayers.ts';

const DEG = Math.PI / 180;
/** The blurred face: this many copies of the face, over this many degrees. */
const BLUR_COPIES = 12;
const BLUR_SPAN_DEG = 48;

/** A spin on the wheel now: its motion, and the clock the tween drives through it. */
/** What a part shows: a picture of this stand's own, or one on the shelf it shares. */
interface Shown {
  picture: Picture;
  entry: ShelfEntry | null;
}

interface Running {
  motion: SpinMotion | null;
  clock: { t: number };
  tween: gsap.core.Tween;
  resolve: () => void;
}

/**
 * One cake stand: the turning face (and its blurred twin at speed), the plate under it, a
 * still gloss, the light on a winning segment and its pulsing symbol, and the piping-tip
 * cursor that flicks as each sugar pearl passes it. Each part is baked once per unit and
 * size into a picture; `layers` shows them (in the Pixi scene, or as compositor layers
 * beside it) and a spinning frame only turns them.
 */
export class WheelView {
  private radius = 0;
  private segments: readonly Segment[] | null = null;
  private deg = 0;
  private lastBoundary = 0;
  private running: Running | null = null;
  /** The lit segment (null: none) and its symbol's pulse. */
  private lit: number | null = null;
  private readonly pulse = { scale: 1, alpha: 0 };
  private pulseTween: gsap.core.Tween | null = null;
  /** How much of the blurred face shows (0: hidden, and then not turned either: nothing to composite). */
  private blur = 0;
  /** A face baked and not shown yet (the start bakes it and its blur in two tasks). */
  private bakedFace: Shown | null = null;
  /** What each part shows now: given back (or destroyed) when the part shows another. */
  private readonly shown = new Map<WheelPart, Shown>();

  constructor(
    private readonly renderer: Renderer,
    private readonly layers: WheelLayers,
    private readonly shelf: PictureShelf,
    private readonly onTick: () => void,
  ) {}

  get rotationDeg(): number {
    return this.deg;
  }

  get spinning(): boolean {
    return this.running !== null;
  }

  place(x: number, y: number, radius: number): void {
    this.layers.place(x, y);
    if (radius === this.radius) return;
    this.radius = radius;
    for (const draw of this.pictures()) draw();
  }

  /**
   * place(), with `between()` awaited before each of the stand's pictures: the first
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

  /** The stand's pictures at its radius, each drawn by one call: plate, gloss, glow, cursor, the face and its blur (two calls). */
  private pictures(): (() => void)[] {
    return [
      () =>
        this.present(
          'plate',
          this.shared('plate', () => this.platePicture()),
        ),
      () =>
        this.present(
          'gloss',
          this.shared('gloss', () => this.glossPicture()),
        ),
      () =>
        this.present(
          'glow',
          this.shared('glow', () => this.glowPicture()),
        ),
      () =>
        this.present(
          'cursor',
          this.shared('cursor', () => this.cursorPicture()),
        ),
      () => this.bakeFace(),
      () => this.showFace(),
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
    // The parts' fades live on their holders, not in the pictures: only the lit symbol is baked anew.
    if (this.lit !== null) this.drawLitSymbol();
    this.setDeg(this.deg);
  }

  showSegments(segments: readonly Segment[] | null): void {
    // The same face again (the blank face at start, a replay's end): nothing to bake, and the
    // start-up is spared a task of eight bakes.
    if (segments === this.segments) return;
    this.segments = segments;
    this.drawFace();
  }

  /** Straight onto a segment with no animation (a resumed play, a history replay). */
  showStopped(stop: number, offset = 0): void {
    this.stopAnimations();
    this.setDeg(spinTarget(this.deg, stop, 0, offset));
  }

  /** Turns the wheel by `plan` (see spinMotion); resolves on the frame it rests on the target. */
  spin(plan: SpinPlan): Promise<void> {
    this.stopAnimations();
    const motion = spinMotion(plan);
    return new Promise((resolve) => this.run(motion, motion.lengthS, (t) => angleAt(motion, t), resolve));
  }

  /** Jump to the end of the spin (the test clock). */
  finishSpin(): void {
    this.running?.tween.progress(1);
  }

  /**
   * The player hurries: from where it is and as fast as it turns, the wheel brakes onto
   * the same landing in about 0.2 s (fewer turns, same segment, same point in it).
   */
  slamStop(): void {
    const running = this.running;
    if (!running?.motion) return;
    const t = running.clock.t;
    const brake = brakeOnto(this.deg, velocityAt(running.motion, t), running.motion.plan.to);
    const resolve = running.resolve;
    running.tween.kill();
    this.running = null;
    this.run(
      null,
      brake.durationS,
      (s) => brake.angleAt(s),
      resolve,
      (s) => (brake.angleAt(s + 1e-3) - brake.angleAt(s)) / 1e-3,
    );
  }

  private run(
    motion: SpinMotion | null,
    lengthS: number,
    angle: (t: number) => number,
    resolve: () => void,
    speed: (t: number) => number = (t) => (motion ? velocityAt(motion, t) : 0),
  ): void {
    const clock = { t: 0 };
    const running: Running = {
      motion,
      clock,
      resolve,
      tween: gsap.to(clock, {
        t: lengthS,
        duration: lengthS,
        ease: 'none',
        onUpdate: () => {
          this.setBlur(blurAmount(speed(clock.t)));
          this.setDeg(angle(clock.t));
        },
        onComplete: () => {
          this.setBlur(0);
          this.setDeg(angle(lengthS));
          this.running = null;
          resolve();
        },
      }),
    };
    this.running = running;
  }

  /**
   * Lights the segment under the cursor: its wedge glows and turns with the wheel, its
   * symbol pulses. Steady under reduced motion (no pulsing, no flashing).
   */
  setLit(on: boolean, reducedMotion = false): void {
    this.pulseTween?.kill();
    this.pulseTween = null;
    this.lit = on ? segmentUnderCursor(this.deg) : null;
    this.pulse.scale = 1;
    this.pulse.alpha = on ? 1 : 0;
    if (on) this.drawLitSymbol();
    this.layers.setAlpha('glow', on ? 1 : 0);
    this.layers.setAlpha('symbol', on ? 1 : 0);
    this.turnLit();
    if (on && !reducedMotion) {
      this.pulseTween = gsap.to(this.pulse, {
        scale: 1.22,
        duration: 0.45,
        ease: 'sine.inOut',
        yoyo: true,
        repeat: 7,
        onUpdate: () => this.turnLit(),
      });
    }
  }

  private stopAnimations(): void {
    this.running?.tween.kill();
    this.running = null;
    this.setBlur(0);
  }

  private setBlur(amount: number): void {
    if (amount === this.blur) return;
    this.blur = amount;
    this.layers.setAlpha('blur', amount);
  }

  private setDeg(deg: number): void {
    this.deg = deg;
    this.layers.turn('face', deg * DEG);
    if (this.blur > 0) this.layers.turn('blur', deg * DEG);
    this.turnLit();
    const boundary = boundaryCount(deg);
    if (boundary !== this.lastBoundary) {
      this.lastBoundary = boundary;
      if (this.running) this.onTick();
    }
    // The tip bends back as a pearl pushes it, then springs straight (a pure function of
    // the angle, so a frozen frame always looks the same).
    const within = ((((deg + SEGMENT_DEG / 2) % SEGMENT_DEG) + SEGMENT_DEG) % SEGMENT_DEG) / SEGMENT_DEG;
    const push = within < 0.25 ? 1 - within / 0.25 : 0;
    this.layers.turn('cursor', this.running ? -0.22 * push : 0);
  }

  /** The light and the symbol sit on the lit segment, wherever the face has turned it. */
  private turnLit(): void {
    if (this.lit === null) return;
    const radians = (this.deg + this.lit * SEGMENT_DEG) * DEG;
    this.layers.turn('glow', radians);
    this.layers.turn('symbol', radians, this.pulse.scale);
  }

  private platePicture(): Picture {
    const r = this.radius;
    const plate = new Graphics();
    plate.circle(0, r * 0.07, r * 1.08).fill({ color: 0x12060f, alpha: 0.45 });
    plate.circle(0, 0, r * 1.07).fill(PALETTE.frosting);
    plate.circle(0, 0, r * 1.07).stroke({ width: Math.max(1, r * 0.015), color: 0xd9c3a5 });
    for (let k = 0; k < 24; k++) {
      const a = k * 15 * DEG;
      plate.circle(Math.cos(a) * r * 1.035, Math.sin(a) * r * 1.035, r * 0.022).fill(0xf1dcc0);
    }
    return this.bake(plate);
  }

  private glossPicture(): Picture {
    const r = this.radius;
    const gloss = new Graphics();
    gloss
      .arc(0, 0, r * 0.8, 200 * DEG, 250 * DEG)
      .stroke({ width: r * 0.07, color: 0xffffff, alpha: 0.22, cap: 'round' });
    gloss
      .arc(0, 0, r * 0.8, 258 * DEG, 266 * DEG)
      .stroke({ width: r * 0.07, color: 0xffffff, alpha: 0.22, cap: 'round' });
    return this.bake(gloss);
  }

  /** The lit segment's light: a warm wash over the wedge and a gold rim round it, drawn on top and turned onto it. */
  private glowPicture(): Picture {
    const r = this.radius;
    const glow = new Graphics();
    const a0 = (-90 - SEGMENT_DEG / 2) * DEG;
    const a1 = (-90 + SEGMENT_DEG / 2) * DEG;
    const inner = r * 0.93;
    glow.moveTo(0, 0).arc(0, 0, inner, a0, a1).closePath().fill({ color: PALETTE.gold, alpha: 0.3 });
    glow
      .moveTo(0, 0)
      .arc(0, 0, inner * 0.97, a0 + 0.02, a1 - 0.02)
      .closePath()
      .stroke({ width: Math.max(6, r * 0.08), color: PALETTE.gold, alpha: 0.35, join: 'round' });
    glow
      .moveTo(0, 0)
      .arc(0, 0, inner, a0, a1)
      .closePath()
      .stroke({ width: Math.max(3, r * 0.045), color: PALETTE.gold, join: 'round' });
    return this.bake(glow);
  }

  /** The lit segment's symbol, alone, to pulse above the face (it grows about its own middle). */
  private drawLitSymbol(): void {
    const segment = this.lit === null ? undefined : this.segments?.[this.lit];
    if (!segment || this.radius <= 0) return;
    const size = this.radius * 0.34;
    const holder = new Container();
    const symbol = createSymbol(segment.symbol, size);
    symbol.position.set(0, -this.radius * 0.42);
    holder.addChild(symbol);
    this.present('symbol', this.own(this.bake(holder, { x: 0, y: 0 }, { x: 0, y: -this.radius * 0.42 })));
  }

  private cursorPicture(): Picture {
    const r = this.radius;
    const size = r * 0.42;
    const tip = new Container();
    const drawing = createPipingTip(size);
    // Pivot at the top of the bag so a flick swings the tip sideways.
    drawing.position.set(0, size);
    tip.addChild(drawing);
    return this.bake(tip, { x: 0, y: -r * 0.84 - size });
  }

  /** Draws `content` once into a picture, placed as it was drawn about `pivot`. */
  private bake(content: Container, pivot = { x: 0, y: 0 }, anchor?: { x: number; y: number }): Picture {
    const bounds = content.getLocalBounds();
    const texture = this.renderer.generateTexture({
      target: content,
      resolution: this.renderer.resolution,
      antialias: true,
    });
    content.destroy({ children: true });
    return { texture, placement: { pivot, offset: { x: bounds.x, y: bounds.y }, anchor } };
  }

  /** Shows `next` as `part`, then lets go of what the part showed before. */
  private present(part: WheelPart, next: Shown): void {
    this.layers.show(part, next.picture.texture, next.picture.placement);
    const before = this.shown.get(part);
    this.shown.set(part, next);
    if (before) this.release(before);
  }

  private release(shown: Shown): void {
    if (shown.entry) this.shelf.give(shown.entry);
    else shown.picture.texture.destroy(true);
  }

  private own(picture: Picture): Shown {
    return { picture, entry: null };
  }

  /** The picture every stand of this size shows for `part`, from the shelf (baked there by the first). */
  private shared(part: string, bake: () => Picture): Shown {
    const entry = this.shelf.take(`${part}@${this.radius}`, bake);
    return { picture: entry.picture, entry };
  }

  private drawFace(): void {
    this.bakeFace();
    this.showFace();
  }

  /**
   * The face at this radius, kept aside until showFace(): its blurred twin is made from it.
   * The blank face (no unit yet) is the same on every stand: one on the shelf.
   */
  private bakeFace(): void {
    if (this.radius <= 0) return;
    if (this.bakedFace) this.release(this.bakedFace);
    const bake = (): Picture => {
      const content = buildWheelFace(this.segments, this.radius);
      const texture = this.renderer.generateTexture({
        target: content,
        resolution: this.renderer.resolution,
        antialias: true,
      });
      content.destroy({ children: true });
      return { texture, placement: this.centred(texture) };
    };
    this.bakedFace = this.segments === null ? this.shared('face', bake) : this.own(bake());
  }

  /** The baked face and its blurred twin shown. */
  private showFace(): void {
    const face = this.bakedFace;
    if (face === null) return;
    this.bakedFace = null;
    const blurOfFace = (): Picture => ({
      texture: this.blurOf(face.picture.texture),
      placement: face.picture.placement,
    });
    const blur = face.entry ? this.shared('blur', blurOfFace) : this.own(blurOfFace());
    this.present('face', face);
    this.present('blur', blur);
    this.layers.turn('face', this.deg * DEG);
    this.layers.turn('blur', this.deg * DEG);
  }

  /** Centred on the hub, as a sprite anchored at its middle would be. */
  private centred(texture: Texture): PartPlacement {
    return { pivot: { x: 0, y: 0 }, offset: { x: -texture.width / 2, y: -texture.height / 2 } };
  }

  /**
   * The face smeared along its turn: copies of it, each a few degrees on, averaged (the
   * i-th drawn at 1/(i+1) over the ones before). Shown at speed instead of a strobing face.
   */
  private blurOf(face: Texture): Texture {
    const smear = new Container();
    for (let i = 0; i < BLUR_COPIES; i++) {
      const copy = new Sprite(face);
      copy.anchor.set(0.5);
      copy.rotation = (i / (BLUR_COPIES - 1) - 0.5) * BLUR_SPAN_DEG * DEG;
      copy.alpha = 1 / (i + 1);
      smear.addChild(copy);
    }
    const texture = this.renderer.generateTexture({
      target: smear,
      resolution: this.renderer.resolution,
      antialias: true,
      frame: new Rectangle(-face.width / 2, -face.height / 2, face.width, face.height),
    });
    smear.destroy({ children: false });
    return texture;
  }
}
