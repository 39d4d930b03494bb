import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { commitBlock, generateBlock, unitProof } from '../emission/index.ts';
import { TICKET_PROOF_FORMAT } from '../proofs/index.ts';
import { logSigner, loggedTicket } from './testLog.ts';
import type { LoggedTicketProof } from '../transparency/index.ts';
import { USAGE, main } from './commands.ts';

const dir = mkdtempSync(join(tmpdir(), 'spincake-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const block = generateBlock({ stakeCents: 200, seedHex: 'c0ffee', count: 70 });
const commitment = commitBlock(block);

const signer = logSigner();
const playedAt = new Date();

function proofFile(name: string, change: (proof: LoggedTicketProof) => void = () => {}): string {
  const unit = unitProof(block, commitment, 42);
  const unitProofOnly = {
    format: TICKET_PROOF_FORMAT,
    playId: 'a-play',
    blockId: block.id,
    stakeCents: 200,
    count: 70,
    position: 42,
    wheels: block.unitAt(42).wheels,
    lotCents: unit.lotCents,
    salt: unit.salt,
    leaf: unit.leaf,
    path: unit.path,
    root: commitment.root,
    seedHash: commitment.seedHash,
  };
  const proof = loggedTicket(unitProofOnly, signer, playedAt);
  change(proof);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(proof));
  return file;
}

async function verify(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, (line) => lines.push(line));
  return { code, lines };
}

describe('npm run verify -- ticket', () => {
  it('verifies a saved proof against the published root', async () => {
    const { code, lines } = await verify('ticket', proofFile('good'), '--root', commitment.root);
    expect(code).toBe(0);
    expect(lines.slice(0, -1).every((l) => l.startsWith('✓'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^VERIFIED: /);
  });

  it('needs the published root: the root inside a proof is the forger’s to write', async () => {
    // A forged proof: a unit of another block (its own seed, its own root), named as the real block's.
    const forgedBlock = generateBlock({ stakeCents: 200, seedHex: 'bad5eed0', count: 70 });
    const forgedCommitment = commitBlock(forgedBlock);
    const forged = proofFile('forged', (p) => {
      const unit = unitProof(forgedBlock, forgedCommitment, 7);
      Object.assign(p, { position: 7, wheels: forgedBlock.unitAt(7).wheels, lotCents: unit.lotCents });
      Object.assign(p, { salt: unit.salt, leaf: unit.leaf, path: unit.path, root: forgedCommitment.root });
    });
    const alone = await verify('ticket', forged);
    expect(alone.code).toBe(2);
    const { code, lines } = await verify('ticket', forged, '--root', commitment.root);
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe('NOT VERIFIED');

    // --blocks URL: the root as the game publishes it (GET /api/blocks).
    const published = { blocks: [{ id: block.id, root: commitment.root }] };
    const server = http.createServer((request, response) => {
      response.writeHead(request.url === '/api/blocks' ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.url === '/api/blocks' ? published : {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const fetched = async (...args: string[]) => {
        const out: string[] = [];
        return { code: await main(['ticket', ...args], (line) => out.push(line)), lines: out };
      };
      const good = await fetched(proofFile('good'), '--blocks', base);
      expect(good.code).toBe(0);
      expect(good.lines.at(-1)).toMatch(/^VERIFIED: /);
      expect((await fetched(forged, '--blocks', `${base}/api/blocks`)).code).toBe(1);
      const unknown = await fetched(
        proofFile('elsewhere', (p) => (p.blockId = 'f'.repeat(64))),
        '--blocks',
        base,
      );
      expect(unknown.code).toBe(1);
      expect(unknown.lines).toContainEqual(expect.stringMatching(/lists no block/));
      expect((await fetched(proofFile('good'), '--blocks', `${base}/nowhere/`)).code).toBe(1);
      expect((await fetched(proofFile('good'), '--blocks', base, '--root', commitment.root)).code).toBe(2);
    } finally {
      server.close();
    }
  });

  it('says which check fails: a wrong leaf, a wrong path, a wrong root, a lot the faces do not give', async () => {
    const failing = async (file: string, root = commitment.root) => {
      const { code, lines } = await verify('ticket', file, '--root', root);
      expect(code).toBe(1);
      expect(lines.at(-1)).toBe('NOT VERIFIED');
      return lines.filter((l) => l.startsWith('✗')).map((l) => l.split(':')[0]);
    };
    expect(
      await failing(
        proofFile('unit', (p) => (p.wheels[2]!.segments[0]!.points = (p.wheels[2]!.segments[0]!.points + 50) % 550)),
      ),
    ).toContain('✗ leaf');
    expect(await failing(proofFile('path', (p) => (p.path[1]![0] = '0'.repeat(64))))).toEqual(['✗ path']);
    expect(await failing(proofFile('good'), 'f'.repeat(64))).toEqual(['✗ published']);
    expect(await failing(proofFile('lot', (p) => (p.lotCents += 200)))).toEqual(['✗ lot', '✗ leaf', '✗ path']);
    writeFileSync(join(dir, 'junk.json'), 'not json');
    expect((await verify('ticket', join(dir, 'junk.json'), '--root', commitment.root)).code).toBe(1);
  });
});

describe('npm run verify -- block', () => {
  it('regenerates the block from its seed and compares the root', async () => {
    const ok = await verify('block', '--stake', '2', '--seed', 'c0ffee', '--root', commitment.root, '--count', '70');
    expect(ok.code).toBe(0);
    expect(ok.lines).toContain(
      `seed hash ${commitment.seedHash} (compare with the one published before the first sale)`,
    );
    const wrong = await verify('block', '--stake', '2', '--seed', 'c0ffef', '--root', commitment.root, '--count', '70');
    expect(wrong.code).toBe(1);
    expect(wrong.lines.join('\n')).toMatch(/✗ the seed gives the root [0-9a-f]{64}, not /);
    expect((await verify('block', '--stake', '4', '--seed', 'c0ffee', '--root', commitment.root)).code).toBe(2);
    expect((await verify('block', '--stake', '2', '--seed', 'c0ffee', '--root', 'xyz')).code).toBe(2);
  });
});

describe('npm run verify: arguments', () => {
  async function verifyCall(...args: string[]) {
    const lines: string[] = [];
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    try {
      return { code: await main(args, (line) => lines.push(line)), lines, errors };
    } finally {
      spy.mockRestore();
    }
  }

  it('refuses an unknown flag, a missing value or a stray argument: exit 2, the usage on stderr', async () => {
    const good = proofFile('args');
    for (const args of [
      ['ticket', good, '--rot', commitment.root],
      ['ticket', good, '--root'],
      ['ticket', good, good, '--root', commitment.root],
      ['block', '--stake', '2', '--seed', 'c0ffee', '--root', commitment.root, '--counts', '70'],
      ['block', '--stake', '2', '--seed'],
      ['block', 'extra', '--stake', '2', '--seed', 'c0ffee', '--root', commitment.root],
      ['monitor', 'http://127.0.0.1:1', '--stat', join(dir, 'state.json')],
      ['monitor', 'http://127.0.0.1:1', '--state'],
      ['monitor', 'http://127.0.0.1:1', 'http://127.0.0.1:2', '--state', join(dir, 'state.json')],
    ]) {
      const result = await verifyCall(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.errors[0], args.join(' ')).toMatch(/^verify: /);
      expect(result.errors[1]).toBe(USAGE);
      expect(result.lines).toEqual([]);
    }
  });

  it('answers --help for itself and each command: the usage on stdout, exit 0', async () => {
    for (const args of [['--help'], ['ticket', '--help'], ['block', '-h'], ['monitor', 'http://x', '--help']]) {
      const result = await verifyCall(...args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.lines).toEqual([USAGE]);
      expect(result.errors).toEqual([]);
    }
  });
});
