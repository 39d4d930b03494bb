/**
 * Moved to blocks/blockLibrary.ts. Kept only for the files of src/server/store/** and
 * ledgerAudit.ts that still import this path (another branch reshapes them); remove once
 * they import blocks/blockLibrary.ts.
 */
export { BlockLibrary } from './blocks/blockLibrary.ts';
