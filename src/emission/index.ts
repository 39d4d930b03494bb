/**
 * src/emission: making, storing, reading and auditing blocks of 1,000,000 game units.
 *
 * Additions to the agreed API (names unchanged): `Block.body` and `Block.fileBytes()`
 * expose the encoded bytes; `AuditReport` also has `problemCount`, `fullBlock`,
 * `offCursorBells` and `offCursorTopPoints`; block-level audit problems have position -1.
 * Bad options to `generateBlock` (stake, seed, count) throw RangeError.
 */
export { BLOCK_FORMAT_VERSION, BlockFileError, decodeBlock, type Block, type BlockHeader } from './block.ts';
export { generateBlock, type GenerateOptions } from './generate.ts';
export { readBlockFile, writeBlockFile, writeFileAtomically } from './file.ts';
export { auditBlock, type AuditProblem, type AuditReport } from './audit.ts';
export { unitForPair } from './faces.ts';
export { PAIR_SPLIT, blockPairCounts } from './split.ts';
export { UNIT_BYTES } from './record.ts';
export {
  commitBlock,
  commitmentSource,
  leafPreimages,
  seedOf,
  unitProof,
  unitSalts,
  type BlockCommitment,
  type UnitProof,
} from './commitment.ts';
export { CommitmentWorkers, startTypeScriptWorker } from './commitmentWorkers.ts';
export { commitmentFilePath, readCommitmentFile, writeCommitmentFile } from './commitmentFile.ts';
