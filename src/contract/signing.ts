/*
 * What a signer adds to a document, as the server hands it to the renderer to print the signed
 * copy (docs/e-signing.md). Plain types, shared by the server and the renderer.
 */

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
