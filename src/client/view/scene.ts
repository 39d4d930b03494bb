import 'pixi.js/unsafe-eval';
import gsap from 'gsap';
import { Application, Container, Ticker } from 'pixi.js';
// Only the parts of Pixi the table draws with (manageImports: false below): not its events,
// accessibility, DOM, filters, meshes, tiling or bitmap and HTML text, which Pixi would
// otherwise fetch at start-up in a chunk of their own.
import 'pixi.js/app';
import 'pixi.js/graphics';
import 'pixi.js/text';
import { createSprinkle } from '../art/symbols.ts';
import { SPRINKLE_COLORS } from '../art/palette.ts';
import type { SpinPlan } from '../game/spin.ts';
import type { ShownWheels, TableView } from '../game/views.ts';
import type { WinLevel } from '../game/winLevels.ts';
import type { RendererChoice } from '../pageOptions.ts';
import type { Layout } from '../ui/layout.ts';
import { nextTask } from '../nextTask.ts';
import { PictureShelf } from './pictureShelf.ts';
import { hasFastWebGL, rendererPreference } from './renderer.ts';
import { DomWheelLayers, PixiWheelLayers } from './wheelLayers.ts';
import { WheelView } from './wheelView.ts';

/**
 * The drawn part of the table: four cake stands and the sprinkles. Buttons, text
 * panels and the result card are DOM (crisp, accessible); this draws what turns.
 *
 * Pixi draws every picture. On WebGL the stands are sprites in Pixi's stage; on the 2D
 * canvas renderer each stand's parts are small canvases beside Pixi's (see
 * DomWheelLayers), turned by the compositor, and Pixi's own canvas, above them, holds
 * only the sprinkles of a win.
 */
export class Scene implements TableView {
  readonly wheels: WheelView[] = [];
  /** The pictures the stands share (plate, gloss, glow, cursor, the blank face). */
  readonly shelf = new PictureShelf();
  private readonly sprinkles = new Container();
  private dirty = true;
  private lastTime = -1;
  /** Whether frame() is on GSAP's ticker; off it while the table is still (see frame). */
  private awake = false;
  private stillFrames = 0;
  /** The WebGL context is gone: nothing can be drawn until the browser gives it back. */
  private contextLost = false;
  /** Waiting for the table to be drawn again (a result card must not show over an empty table). */
  private readonly waitingForDrawn: (() => void)[] = [];

  private constructor(
    readonly app: Application,
    readonly rendererName: string,
    /** Whether the stands are in Pixi's stage (so a turning wheel needs a Pixi frame). */
    private readonly standsInStage: boolean,
    /** Seeded in test mode, so a frozen celebration frame is the same every run. */
    private readonly random: () => number,
  ) {}

  static async create(
    host: HTMLElement,
    renderer: RendererChoice | null,
    onTick: (wheel: number) => void,
    random: () => number = Math.random,
  ): Promise<Scene> {
    const app = new Application();
    await app.init({
      preference: rendererPreference(renderer, hasFastWebGL),
      resolution: Math.min(window.devicePixelRatio || 1, 3),
      autoDensity: true,
      backgroundAlpha: 0,
      antialias: true,
      width: host.clientWidth || window.innerWidth,
      height: host.clientHeight || window.innerHeight,
      // Frames are drawn from GSAP's ticker, and only when something moved (see frame()).
      autoStart: false,
      sharedTicker: false,
      manageImports: false,
    });
    app.canvas.setAttribute('aria-hidden', 'true');
    const standsInStage = app.renderer.name !== 'canvas';
    const scene = new Scene(app, app.renderer.name, standsInStage, random);
    for (let i = 0; i < 4; i++) {
      let layers;
      if (standsInStage) {
        layers = new PixiWheelLayers();
        app.stage.addChild(layers.root);
      } else {
        layers = new DomWheelLayers(app.renderer);
        layers.root.setAttribute('aria-hidden', 'true');
        host.appendChild(layers.root);
      }
      const wheel = new WheelView(app.renderer, layers, scene.shelf, () => onTick(i));
      // Each stand starts on a different cake, so the idle table is not four copies.
      wheel.showStopped(i % 6, 0);
      scene.wheels.push(wheel);
    }
    // After the stands: on the canvas renderer, the sprinkles fall over them.
    host.appendChild(app.canvas);
    if (standsInStage) scene.watchContext(app.canvas);
    app.stage.addChild(scene.sprinkles);
    scene.wake();
    return scene;
  }

  /**
   * Back on GSAP's ticker for the next frames: whenever the table changes or something
   * starts moving (and from the test clock, which moves GSAP's time by hand).
   */
  wake(): void {
    this.stillFrames = 0;
    if (this.awake) return;
    this.awake = true;
    gsap.ticker.add(this.frame);
    // Pixi's own system ticker only runs its texture collection (SchedulerSystem), yet it
    // asks for every animation frame: it runs while the scene does, and stops with it.
    Ticker.system.start();
  }

  /**
   * A lost WebGL context (phones drop it when the page goes to the background) takes
   * every baked picture with it. Pixi's own listener (added first) keeps the context
   * restorable and rebuilds its GPU state; here the stands' pictures are baked again at
   * their angles, and the table is said lost (body[data-graphics]) meanwhile.
   */
  private watchContext(canvas: HTMLCanvasElement): void {
    document.body.dataset.graphics = 'drawn';
    canvas.addEventListener('webglcontextlost', () => {
      this.contextLost = true;
      // Not a white or stale rectangle: the table's own background until the stands are back.
      canvas.style.visibility = 'hidden';
      document.body.dataset.graphics = 'lost';
    });
    canvas.addEventListener('webglcontextrestored', () => {
      this.contextLost = false;
      // The shelf's pictures went with the context: baked again by the first stand that asks.
      this.shelf.clear();
      for (const wheel of this.wheels) wheel.redraw();
      this.dirty = true;
      this.frame();
      this.wake(); // a wheel still in its spin needs the frames after this one
      canvas.style.visibility = '';
      document.body.dataset.graphics = 'drawn';
      for (const fn of this.waitingForDrawn.splice(0)) fn();
    });
  }

  whenDrawn(fn: () => void): void {
    if (this.contextLost) this.waitingForDrawn.push(fn);
    else fn();
  }

  /**
   * Everything that moves runs on GSAP's clock, so a frame is needed only when that
   * clock moved with tweens on it, or the table changed: an idle table costs nothing,
   * and a frozen test clock shows a frame that stays put. A few still frames in a row and
   * the scene leaves GSAP's ticker, which then sleeps (no requestAnimationFrame at all)
   * until a tween or wake() brings it back.
   */
  private readonly frame = (): void => {
    const timeline = gsap.globalTimeline;
    const time = timeline.totalTime();
    const moving = time !== this.lastTime && timeline.getChildren(false, true, true).length > 0;
    this.lastTime = time;
    // Without the stands in the stage, only falling sprinkles move in Pixi's canvas: a
    // spin then costs no Pixi frame at all.
    const stageMoves = moving && (this.standsInStage || this.sprinkles.children.length > 0);
    // A lost context draws nothing: the scene sleeps as when still, until it is restored.
    if (this.contextLost || (!stageMoves && !this.dirty)) {
      if ((this.contextLost || !moving) && ++this.stillFrames > 3) {
        this.awake = false;
        gsap.ticker.remove(this.frame);
        Ticker.system.stop();
      }
      return;
    }
    this.stillFrames = 0;
    this.dirty = false;
    if (!this.standsInStage) {
      // An empty, transparent full-screen canvas still costs the compositor a blend over
      // every turning face each frame: out of the picture while there are no sprinkles.
      const empty = this.sprinkles.children.length === 0;
      this.app.canvas.style.visibility = empty ? 'hidden' : '';
      if (empty) return;
    }
    this.app.render();
  };

  /** Something on the table changed: one frame draws it. */
  private touch(): void {
    this.dirty = true;
    this.wake();
  }

  /**
   * The first layout, one picture per task: drawing the stands at their size is the longest
   * step of the start (a stand's five pictures in one task were a long task on a phone), and
   * relayout() then finds them drawn.
   */
  async layOut(layout: Layout): Promise<void> {
    this.touch();
    this.app.renderer.resize(layout.width, layout.height);
    for (const [i, slot] of layout.wheels.entries()) {
      await this.wheels[i]!.placeByPictures(slot.x, slot.y, slot.radius, nextTask);
    }
  }

  relayout(layout: Layout): void {
    this.touch();
    if (this.app.screen.width !== layout.width || this.app.screen.height !== layout.height) {
      this.app.renderer.resize(layout.width, layout.height);
    }
    layout.wheels.forEach((slot, i) => this.wheels[i]!.place(slot.x, slot.y, slot.radius));
  }

  showSegments(wheels: ShownWheels): void {
    this.touch();
    this.wheels.forEach((w, i) => w.showSegments(wheels ? wheels[i]!.segments : null));
  }

  rotationDeg(wheel: number): number {
    return this.wheels[wheel]!.rotationDeg;
  }

  showStopped(wheel: number, stop: number, offset: number): void {
    this.touch();
    this.wheels[wheel]!.showStopped(stop, offset);
  }

  spin(wheel: number, plan: SpinPlan): Promise<void> {
    this.wake();
    return this.wheels[wheel]!.spin(plan);
  }

  /** Slam-stop: every turning wheel brakes onto its stop in about 0.2 s. */
  finishSpins(): void {
    this.wake();
    for (const w of this.wheels) w.slamStop();
  }

  /** The test clock's « finish spins »: every turning wheel at its rest at once. */
  finishSpinsNow(): void {
    this.touch();
    for (const w of this.wheels) w.finishSpin();
  }

  /** The winning segments light up and their symbols pulse; sprinkles rain, more for bigger wins. */
  celebrate(level: WinLevel, glowing: readonly boolean[], reducedMotion: boolean): void {
    this.touch();
    glowing.forEach((on, i) => this.wheels[i]!.setLit(on, reducedMotion));
    const count = level.sprinkles;
    if (count === 0 || reducedMotion) return;
    const { width, height } = this.app.screen;
    for (let k = 0; k < count; k++) {
      const color = SPRINKLE_COLORS[k % SPRINKLE_COLORS.length]!;
      const s = createSprinkle(color, 10 + this.random() * 8);
      s.position.set(this.random() * width, -20 - this.random() * height * 0.4);
      s.rotation = this.random() * Math.PI;
      this.sprinkles.addChild(s);
      gsap.to(s, {
        y: height + 30,
        x: s.x + (this.random() - 0.5) * 160,
        rotation: s.rotation + (this.random() - 0.5) * 12,
        duration: 1.8 + this.random() * 1.6,
        delay: this.random() * level.sprinkleSpreadS,
        ease: 'power1.in',
        onComplete: () => {
          s.destroy({ children: true });
          // The last one gone: one more frame clears it from the canvas.
          this.dirty = true;
        },
      });
    }
  }

  clearCelebration(): void {
    this.touch();
    for (const w of this.wheels) w.setLit(false);
    for (const s of [...this.sprinkles.children]) {
      gsap.killTweensOf(s);
      s.destroy({ children: true });
    }
  }
}
