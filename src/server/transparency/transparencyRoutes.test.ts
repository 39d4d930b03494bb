import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  BlocksResponse,
  LogConsistencyResponse,
  LogEntriesResponse,
  LogInclusionResponse,
  PlayResponse,
  SignedTreeHeadResponse,
  TicketProofResponse,
  TransparencyKeyResponse,
} from '../../contract/api.ts';
import { fromHex } from '../../proofs/index.ts';
import {
  entryBytes,
  logLeafHash,
  parseEntry,
  verifyConsistency,
  verifyHeadSignature,
  verifyInclusion,
  verifyLoggedTicket,
  type LoggedTicketProof,
} from '../../transparency/index.ts';
import { testBlocks } from '../testing/blockCache.ts';
import { build, call, demoSession, newPlayId, type TestApp } from '../testing/harness.ts';
import { nodeSha256 } from '../../transparency/nodeSha256.ts';
import { testBook } from '../testing/testBook.ts';

let s: TestApp;
beforeAll(async () => {
  s = await build({ SPINCAKE_TEST_MODE: '1' });
});
afterAll(async () => {
  await s?.close();
});

const get = <T>(url: string) => call<T>(s.app, 'GET', url);
const key = async () => (await get<TransparencyKeyResponse>('/api/transparency/key')).body.publicKey;

async function playAndProve(stakeCents: number) {
  const { token } = await demoSession(s.app);
  const played = await call<PlayResponse>(s.app, 'POST', '/api/plays', {
    token,
    body: { stakeCents, playId: newPlayId() },
  });
  expect(played.status).toBe(200);
  const proof = await call<TicketProofResponse>(s.app, 'GET', `/api/plays/${played.body.play.playId}/proof`, { token });
  expect(proof.status).toBe(200);
  return { play: played.body.play, proof: proof.body as LoggedTicketProof };
}

async function verdictOf(proof: LoggedTicketProof, play: PlayResponse['play']) {
  const blocks = (await get<BlocksResponse>('/api/blocks')).body.blocks;
  const root = blocks.find((b) => b.id === proof.blockId)!.root;
  return verifyLoggedTicket(proof, { publishedRoot: root, trustedKey: await key(), seen: play, sha256: nodeSha256 });
}

describe('the transparency log of a server', () => {
  it('logs the commitment of every block on sale, in signed heads consistent with each other', async () => {
    const { play, proof } = await playAndProve(100);
    expect(proof.log).not.toBeNull();
    const first = (await get<SignedTreeHeadResponse>('/api/transparency/head')).body;
    expect(await verifyHeadSignature(first, await key())).toBe(true);
    const { block } = (await testBlocks())[0]!;
    const entries = (await get<LogEntriesResponse>(`/api/transparency/entries?start=0&end=${first.treeSize - 1}`)).body
      .entries;
    const parsed = entries.map((e) => parseEntry(e.data)!);
    expect(parsed.find((e) => e.blockId === block.id)).toMatchObject({
      kind: 'commitment',
      pool: 'demo', // the first test block is a demo block: its entry names its own pool
      stakeCents: 100,
    });
    expect(parsed.find((e) => e.blockId === play.playId)).toBeUndefined();
    for (const entry of entries) {
      const inclusion = (
        await get<LogInclusionResponse>(`/api/transparency/proof?index=${entry.index}&size=${first.treeSize}`)
      ).body.inclusion.map((h) => fromHex(h)!);
      const leaf = logLeafHash(nodeSha256, entryBytes(entry.data));
      expect(verifyInclusion(nodeSha256, leaf, entry.index, first.treeSize, inclusion, fromHex(first.rootHash)!)).toBe(
        true,
      );
    }
    // The operator closes the 5 € block: its seed is logged, in a larger tree that keeps the first.
    await testBook(s.store).closeBlocksOfStake(500);
    expect(await s.context.publication.revealSeeds(await s.store.listBlocks())).toBe(1);
    const second = (await get<SignedTreeHeadResponse>('/api/transparency/head')).body;
    expect(second.treeSize).toBe(first.treeSize + 1);
    const consistency = (
      await get<LogConsistencyResponse>(
        `/api/transparency/consistency?first=${first.treeSize}&second=${second.treeSize}`,
      )
    ).body.consistency.map((h) => fromHex(h)!);
    expect(
      verifyConsistency(
        nodeSha256,
        first.treeSize,
        second.treeSize,
        fromHex(first.rootHash)!,
        fromHex(second.rootHash)!,
        consistency,
      ),
    ).toBe(true);
    const last = (
      await get<LogEntriesResponse>(`/api/transparency/entries?start=${first.treeSize}&end=${first.treeSize}`)
    ).body.entries[0]!;
    const blocks = await testBlocks();
    expect(parseEntry(last.data)).toMatchObject({
      kind: 'seed',
      blockId: blocks[4]!.block.id,
      seed: blocks[4]!.block.header.seedHex,
    });
    expect(await s.context.publication.revealSeeds(await s.store.listBlocks())).toBe(0);
  });

  it('gives each ticket its entry, a head signed before the sale and the inclusion proof: all verify', async () => {
    const { play, proof } = await playAndProve(200);
    const verdict = await verdictOf(proof, play);
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict.checks.map((c) => c.name)).toEqual([
      'shape',
      'lot',
      'leaf',
      'path',
      'published',
      'play',
      'entry',
      'inclusion',
      'signature',
      'key',
      'head time',
      'played at',
    ]);
    expect(proof.log!.head.timestamp).toBeLessThan(Date.parse(play.createdAt));
  });

  it('refuses a ticket whose log part was tampered with, naming the check', async () => {
    const { play, proof } = await playAndProve(200);
    const failing = async (change: (p: LoggedTicketProof) => void) => {
      const copy = structuredClone(proof);
      change(copy);
      const verdict = await verdictOf(copy, play);
      expect(verdict.ok).toBe(false);
      return verdict.checks.filter((c) => !c.ok).map((c) => c.name);
    };
    expect(await failing((p) => (p.log!.head.timestamp -= 1))).toEqual(['signature']);
    expect(await failing((p) => (p.log!.entry = p.log!.entry.replace(p.root, 'f'.repeat(64))))).toEqual([
      'entry',
      'inclusion',
    ]);
    expect(await failing((p) => (p.log!.inclusion[0] = '0'.repeat(64)))).toEqual(['inclusion']);
    expect(await failing((p) => (p.log!.index += 1))).toContain('inclusion');
    expect(await failing((p) => (p.playedAt = new Date(p.log!.head.timestamp).toISOString()))).toEqual([
      'head time',
      'played at',
    ]);
    expect(await failing((p) => (p.log = null))).toEqual(['entry']);
  });

  it('proves a unit past position 999,424 of a full block, where levels have no sibling', async () => {
    const { block } = (await testBlocks())[3]!; // 3 €
    expect(block.header.count).toBe(1_000_000);
    await testBook(s.store).forceBlockCursor(block.id, 999_999);
    const { play, proof } = await playAndProve(300);
    expect(proof.position).toBe(999_999);
    expect(proof.path.some((level) => level.length === 0)).toBe(true);
    const verdict = await verdictOf(proof, play);
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('refuses a range or size the newest head does not hold, with a reason', async () => {
    const size = (await get<SignedTreeHeadResponse>('/api/transparency/head')).body.treeSize;
    for (const url of [
      `/api/transparency/entries?start=2&end=1`,
      `/api/transparency/entries?start=0&end=${size}`,
      `/api/transparency/entries?start=0`,
      `/api/transparency/entries?start=-1&end=2`,
      `/api/transparency/proof?index=${size}&size=${size}`,
      `/api/transparency/proof?index=0&size=${size + 1}`,
      `/api/transparency/consistency?first=2&second=1`,
      `/api/transparency/consistency?first=1&second=${size + 1}`,
      `/api/transparency/head?x=1`,
    ]) {
      const reply = await get<ApiError>(url);
      expect([url, reply.status, reply.body.error.code]).toEqual([url, 400, 'INVALID_INPUT']);
      expect(reply.body.error.message.length).toBeGreaterThan(0);
    }
  });
});
