/**
 * A worker thread's part of a block's commitment (started by `CommitmentWorkers`): the
 * leaves of a range of units and the levels of the tree above them, sent back without a
 * copy. Pure computation on what it is given: it reads no file and keeps nothing.
 */
import { parentPort } from 'node:worker_threads';
import { commitmentPart, type CommitmentSource } from './commitment.ts';

export interface PartRequest {
  id: number;
  source: CommitmentSource;
  from: number;
  to: number;
  depth: number;
}

export type PartReply = { id: number; levels: Int32Array[] } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('commitmentWorker.ts runs in a worker thread');
port.on('message', (request: PartRequest) => {
  let reply: PartReply;
  try {
    reply = { id: request.id, levels: commitmentPart(request.source, request.from, request.to, request.depth) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, 'levels' in reply ? reply.levels.map((level) => level.buffer as ArrayBuffer) : []);
});
