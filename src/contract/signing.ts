/*
 * What a signer adds to a document, as the server hands it to the renderer to print the signed
 * copy (docs/e-signing.md). Plain types, shared by the server and the renderer.
 */

import { signerLabel, type TSigningPlaceholderType } from './placeholders.ts';

/** A signature or initials: typed text (printed in a script face) or a drawn PNG. */
export type TSignatureMark = { type: 'typed'; text: string } | { type: 'image'; png: Uint8Array };

/** One signer's part of a signed document. */
export interface TSignerStamp {
  name: string;
  signedAt: Date;
  signature: TSignatureMark;
  /** Printed where the format has initials; without it, initials made from the name. */
  initials?: TSignatureMark;
}

/** The signatures a signed copy prints, by signer role (1 is "Signer 1"). */
export interface TSigningInput {
  signers: Record<number, TSignerStamp>;
}

/*
 * How an empty signing box prints, shared by the renderer that draws it and the signing page that
 * finds it again in the PDF to highlight it.
 */

/** What an empty box is for, printed under it as "Signature · Signer 1". */
export const SIGNING_KIND_LABELS: Record<TSigningPlaceholderType, string> = {
  signature: 'Signature',
  initials: 'Initials',
  signed_date: 'Date',
  signer_name: 'Name',
};

/** A box's size in points, before a narrow table cell takes some of its width. */
export const SIGNING_BOX_SIZES: Record<TSigningPlaceholderType, { w: number; h: number }> = {
  signature: { w: 200, h: 56 },
  initials: { w: 90, h: 40 },
  signed_date: { w: 140, h: 32 },
  signer_name: { w: 180, h: 32 },
};

/** Inside a box's bottom: room for its label (or the signer's name) under its line. */
export const SIGNING_LABEL_ROOM = 12;
/** A signature or initials box's inset to its line and label; date and name lines have none. */
export const SIGNING_BOX_PAD = 6;
/** The label's size; its baseline is this plus 2 below the line. */
export const SIGNING_LABEL_SIZE = 7;

/** The label an empty box prints: "Signature · Signer 1". */
export const signingBoxLabel = (type: TSigningPlaceholderType, role: number): string => `${SIGNING_KIND_LABELS[type]} · ${signerLabel(role)}`;
