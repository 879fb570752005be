import type { Kind } from '../fixture.ts';

/** One PDF engine, set up once (fonts, images, browser) and then asked for documents. */
export interface Engine {
  readonly name: EngineName;
  /** Renders document number `i` of the given reference kind (data varies with `i`). */
  render(kind: Kind, i: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** `tagged` is ours writing a tagged document (structure tree, artifacts), as a format saved with `accessible` prints. */
export type EngineName = 'ours' | 'tagged' | 'pdfkit' | 'pdfme' | 'chromium';
export const ENGINE_NAMES: readonly EngineName[] = ['ours', 'tagged', 'pdfkit', 'pdfme', 'chromium'];
