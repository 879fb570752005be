import type { Kind } from './fixture.ts';

export type ToWorker = { type: 'run'; kind: Kind; n: number; start: number } | { type: 'sample'; kind: Kind; i: number; out: string } | { type: 'close' };

export type ToParent =
  | { type: 'ready'; setupMs: number }
  | { type: 'result'; ms: number; n: number; bytes: number; maxRssKb: number }
  | { type: 'sampled'; bytes: number }
  | { type: 'closed' }
  | { type: 'error'; message: string };
