import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SYMBOLS, type Wheel } from '../rules/index.ts';
import { TICKET_PROOF_FORMAT, toHex, verifyTicketProof, type TicketProof } from '../proofs/index.ts';
import { commitBlock, unitProof, unitSalts } from './commitment.ts';
import { generateBlock } from './generate.ts';
import type { Block } from './block.ts';

/** The checker's SHA-256: node:crypto's. */
const nodeSha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

const COUNT = 70;
const block = generateBlock({ stakeCents: 200, seedHex: 'c0ffee', count: COUNT });
const commitment = commitBlock(block);

function ticket(b: Block, position: number): TicketProof {
  const proof = unitProof(b, commitment, position);
  return {
    format: TICKET_PROOF_FORMAT,
    playId: 'p',
    blockId: b.id,
    stakeCents: b.header.stakeCents,
    count: b.header.count,
    position,
    wheels: b.unitAt(position).wheels,
    lotCents: proof.lotCents,
    salt: proof.salt,
    leaf: proof.leaf,
    path: proof.path,
    root: commitment.root,
    seedHash: commitment.seedHash,
  };
}

const clone = (t: TicketProof): TicketProof => JSON.parse(JSON.stringify(t)) as TicketProof;
/** Flips one bit of the hex byte at `byte` of a hex string. */
const flipHex = (hex: string, byte: number) =>
  hex.slice(0, 2 * byte) +
  (parseInt(hex.slice(2 * byte, 2 * byte + 2), 16) ^ 1).toString(16).padStart(2, '0') +
  hex.slice(2 * byte + 2);

/** Every way to change one field of the unit's leaf: each segment's symbol and points, each stop, the lot, the salt, the position. */
function unitChanges(t: TicketProof): TicketProof[] {
  const out: TicketProof[] = [];
  t.wheels.forEach((wheel: Wheel, w) => {
    wheel.segments.forEach((segment, s) => {
      const symbol = clone(t);
      symbol.wheels[w]!.segments[s]!.symbol = SYMBOLS[(SYMBOLS.indexOf(segment.symbol) + 1) % SYMBOLS.length]!;
      const points = clone(t);
      points.wheels[w]!.segments[s]!.points = segment.points === 500 ? 450 : segment.points + 50;
      out.push(symbol, points);
    });
    const stop = clone(t);
    stop.wheels[w]!.stop = (wheel.stop + 1) % 6;
    out.push(stop);
  });
  const lot = clone(t);
  lot.lotCents += 100;
  out.push(lot);
  for (let b = 0; b < 16; b++) out.push({ ...clone(t), salt: flipHex(t.salt, b) });
  if (t.count > 1) out.push({ ...clone(t), position: (t.position + 1) % t.count });
  return out;
}

describe('a block commitment', () => {
  it('is a pure function of the block: same seed, same root; the seed hash is its SHA-256', () => {
    const again = commitBlock(generateBlock({ stakeCents: 200, seedHex: 'c0ffee', count: COUNT }));
    expect(again.root).toBe(commitment.root);
    expect(commitment.seedHash).toBe(createHash('sha256').update(Buffer.from('c0ffee', 'hex')).digest('hex'));
    expect(commitBlock(generateBlock({ stakeCents: 200, seedHex: 'c0ffef', count: COUNT })).root).not.toBe(
      commitment.root,
    );
  });

  it('salts unit i with block i of the salt keystream, whatever range is asked', () => {
    const seed = Uint8Array.from(Buffer.from('c0ffee', 'hex'));
    const all = unitSalts(seed, 0, COUNT);
    expect(unitSalts(seed, 37, 5)).toEqual(all.subarray(37 * 16, 42 * 16));
    expect(new Set(Array.from({ length: COUNT }, (_, i) => toHex(all.subarray(16 * i, 16 * i + 16)))).size).toBe(COUNT);
  });

  it('gives every position of the block a proof that verifies against the root', () => {
    for (let position = 0; position < COUNT; position++) {
      const verdict = verifyTicketProof(ticket(block, position), commitment.root, nodeSha256);
      expect(verdict.checks.map((c) => [c.name, c.ok])).toEqual([
        ['shape', true],
        ['lot', true],
        ['leaf', true],
        ['path', true],
        ['published', true],
      ]);
      expect(verdict.ok).toBe(true);
    }
  });

  it('fails a proof when any field of the unit, any byte of the path or of the root changes', () => {
    for (let position = 0; position < COUNT; position++) {
      const good = ticket(block, position);
      for (const changed of unitChanges(good)) {
        const verdict = verifyTicketProof(changed, commitment.root, nodeSha256);
        expect(verdict.ok).toBe(false);
        // The leaf the proof names no longer matches the unit (or the unit breaks the rules).
        expect(verdict.checks.some((c) => (c.name === 'leaf' || c.name === 'lot' || c.name === 'shape') && !c.ok)).toBe(
          true,
        );
      }
      good.path.forEach((level, l) =>
        level.forEach((sibling, s) => {
          for (let b = 0; b < 32; b++) {
            const changed = clone(good);
            changed.path[l]![s] = flipHex(sibling, b);
            const verdict = verifyTicketProof(changed, commitment.root, nodeSha256);
            expect(verdict.checks.find((c) => c.name === 'path')?.ok).toBe(false);
          }
        }),
      );
      for (let b = 0; b < 32; b++) {
        // A proof that names another root: its path does not reach it, and it is not the one published.
        const otherRoot = flipHex(commitment.root, b);
        const verdict = verifyTicketProof({ ...clone(good), root: otherRoot }, commitment.root, nodeSha256);
        expect(verdict.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['path', 'published']);
        // The right proof against a wrong published root.
        const wrongPublished = verifyTicketProof(good, otherRoot, nodeSha256);
        expect(wrongPublished.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['published']);
      }
    }
  });

  it('reports a unit whose faces do not give its lot, even with a leaf and path that match', () => {
    // A block whose records declare a lot the faces do not show: committed as it is.
    const body = Uint8Array.from(block.body);
    const position = Array.from({ length: COUNT }, (_, i) => i).find((i) => block.lotCentsAt(i) === 0)!;
    body[position * 26 + 25] = (body[position * 26 + 25]! & 0x0f) | (2 << 4); // declares x2
    const forged = { ...block, body, header: block.header } as Block;
    const forgedCommitment = commitBlock(forged);
    const proof = unitProof(forged, forgedCommitment, position);
    const verdict = verifyTicketProof(
      {
        ...ticket(block, position),
        lotCents: proof.lotCents,
        salt: proof.salt,
        leaf: proof.leaf,
        path: proof.path,
        root: forgedCommitment.root,
      },
      forgedCommitment.root,
      nodeSha256,
    );
    expect(verdict.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['lot']);
  });

  it('compares the proof with the play the player saw', () => {
    const good = ticket(block, 3);
    const seen = { playId: 'p', wheels: good.wheels, winCents: good.lotCents };
    expect(verifyTicketProof(good, commitment.root, nodeSha256, seen).ok).toBe(true);
    const otherWheels = clone(good).wheels;
    otherWheels[0]!.stop = (otherWheels[0]!.stop + 1) % 6;
    const verdict = verifyTicketProof(good, commitment.root, nodeSha256, { ...seen, wheels: otherWheels });
    expect(verdict.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['play']);
  });
});
