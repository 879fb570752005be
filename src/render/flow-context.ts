import type { TTextStyle } from '../contract/format-content.ts';
import type { DocumentCanvas } from './page-canvas.ts';
import type { TSigningBox } from './signing-fields.ts';
import type { TRenderWarning } from './types.ts';

/* What a flow (layout.ts) is given: the page, the base style, and how to fill and repeat text. */

export interface PageBox {
  width: number;
  height: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A list's rows as a repeat prints them: how many, and a template filled for one of them. */
export interface TListRows {
  count: number;
  fill(row: number, template: string): string;
}

/** Which row of which list a text is filled for, inside a repeat. */
export interface TRowScope {
  rows: TListRows;
  index: number;
}

export interface FlowContext {
  page: PageBox;
  baseStyle: Required<TTextStyle>;
  /** Substitutes placeholders in template text (values inserted literally). */
  fill: (template: string) => string;
  /**
   * For a repeating table row or list: the rows of the named list placeholder, and a fill in
   * which one row's columns are in scope. No rows when it has none.
   */
  listRows?: (list: string) => TListRows;
  /** The signing box a text prints as, when it is one signing tag alone (signing-fields.ts). */
  signingBox?: (template: string) => TSigningBox | undefined;
  assets: Record<string, Uint8Array>;
  warnings: TRenderWarning[];
  /** Continue on this canvas (a merged PDF of several documents) instead of a new one. */
  canvas?: DocumentCanvas;
  /** Tag the document (docs/accessible-pdf.md): its structure is recorded as it is laid out. */
  tagged?: boolean;
}
