import type { Texture } from 'pixi.js';
import type { PartPlacement } from './wheelLayers.ts';

/** A baked picture and where it sits about its stand's pivot. */
export interface Picture {
  texture: Texture;
  placement: PartPlacement;
}

/** One picture on the shelf, and how many stands show it. */
export interface ShelfEntry {
  readonly picture: Picture;
  users: number;
  gone: boolean;
}

/**
 * The pictures the four stands have in common (a plate, a gloss, a glow, a cursor and a
 * blank face are the same at the same size): baked by the first stand that needs one,
 * shown by the others too, destroyed when the last stops showing it. The start then
 * bakes six pictures instead of twenty-four.
 */
export class PictureShelf {
  private readonly entries = new Map<string, ShelfEntry>();

  /** The picture kept under `key`, baked by `bake` when there is none; the caller shows it until it gives it back. */
  take(key: string, bake: () => Picture): ShelfEntry {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { picture: bake(), users: 0, gone: false };
      this.entries.set(key, entry);
    }
    entry.users++;
    return entry;
  }

  /** One stand no longer shows it: the last one out destroys it. */
  give(entry: ShelfEntry): void {
    entry.users--;
    if (entry.users > 0 || entry.gone) return;
    entry.gone = true;
    for (const [key, kept] of this.entries) if (kept === entry) this.entries.delete(key);
    entry.picture.texture.destroy(true);
  }

  /**
   * Every picture dropped at once (a lost graphics context took them): the stands bake
   * them again, and the entries they still hold are given back without effect.
   */
  clear(): void {
    for (const entry of this.entries.values()) {
      entry.gone = true;
      entry.picture.texture.destroy(true);
    }
    this.entries.clear();
  }
}
