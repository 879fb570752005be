import type { TRenderableFormat } from '../contract/format-content.ts';
import type { TSigningInput } from '../contract/signing.ts';

export type TRenderWarningCode =
  | 'unknown_element'
  | 'invalid_element'
  | 'invalid_setting'
  | 'image_missing'
  | 'image_unreadable'
  | 'missing_glyphs'
  | 'too_many_elements'
  | 'page_limit'
  | 'link_invalid';

/** Something the renderer left out or replaced; the PDF is still valid. */
export interface TRenderWarning {
  code: TRenderWarningCode;
  message: string;
  elementId?: string;
}

export interface TRenderInput {
  format: TRenderableFormat;
  /**
   * Placeholder values by name: text (numbers and yes or no accepted too), and for a list its
   * rows, objects keyed by column name. Values are printed literally, formatted by the
   * placeholder's type or the tag's value format; formulas are computed from the rest.
   */
  data: Readonly<Record<string, unknown>>;
  /** Image bytes keyed by the element's exact `src` string; the renderer never fetches anything. */
  assets?: Record<string, Uint8Array>;
  /**
   * The signed copy: each signer's signature, name and time by role. Without it (the generated
   * document) signing tags print as empty labelled boxes; a role missing here stays empty too.
   */
  signing?: TSigningInput;
  meta: {
    /** The document name, written as the PDF's Title. */
    title: string;
    creationDate: Date;
    /** BCP 47 tag for date and number values; wins over the format's own locale. Default en-US. */
    locale?: string;
    /** Printed large and pale across every page, behind the content ("TEST"). */
    watermark?: string;
  };
}

export interface TRenderResult {
  pdf: Uint8Array;
  warnings: TRenderWarning[];
}
