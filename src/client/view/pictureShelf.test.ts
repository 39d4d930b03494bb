import { describe, expect, it } from 'vitest';
import type { Texture } from 'pixi.js';
import { PictureShelf, type Picture } from './pictureShelf.ts';

/** A picture whose texture records whether it was destroyed (no GPU needed). */
function picture(): Picture & { destroyed: () => boolean } {
  let destroyed = false;
  const texture = { destroy: () => (destroyed = true) } as unknown as Texture;
  return { texture, placement: { pivot: { x: 0, y: 0 }, offset: { x: 0, y: 0 } }, destroyed: () => destroyed };
}

describe('PictureShelf', () => {
  it('bakes a picture once for every stand that takes it, and destroys it when the last gives it back', () => {
    const shelf = new PictureShelf();
    let bakes = 0;
    const baked = picture();
    const bake = () => (bakes++, baked);
    const entries = [0, 1, 2, 3].map(() => shelf.take('plate@120', bake));
    expect(bakes).toBe(1);
    expect(new Set(entries.map((e) => e.picture)).size).toBe(1);
    for (const entry of entries.slice(0, 3)) shelf.give(entry);
    expect(baked.destroyed()).toBe(false);
    shelf.give(entries[3]!);
    expect(baked.destroyed()).toBe(true);
    // Gone from the shelf: the next stand to ask bakes a fresh one.
    shelf.take('plate@120', bake);
    expect(bakes).toBe(2);
  });

  it('keeps pictures of other sizes apart', () => {
    const shelf = new PictureShelf();
    const small = shelf.take('plate@80', picture);
    const large = shelf.take('plate@120', picture);
    expect(small.picture).not.toBe(large.picture);
  });

  it('after clear(), bakes again, and a stand giving back an old entry leaves the new one alone', () => {
    const shelf = new PictureShelf();
    const lost = picture();
    const old = shelf.take('face@120', () => lost);
    shelf.clear();
    expect(lost.destroyed()).toBe(true);
    const fresh = picture();
    const entry = shelf.take('face@120', () => fresh);
    shelf.give(old);
    expect(fresh.destroyed()).toBe(false);
    shelf.give(entry);
    expect(fresh.destroyed()).toBe(true);
  });
});
