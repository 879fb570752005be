import { SIGNING_BOX_PAD, SIGNING_BOX_SIZES, SIGNING_LABEL_ROOM, SIGNING_LABEL_SIZE, signingBoxLabel } from '../../../../contract/signing';
import type { TSigningField } from '../../../../contract/signature-requests';
import type { TPdfMark } from '../../../components/ui/pdf-marks';

/** How far the box's bottom is below its label's baseline (see drawSigningBox). */
const BELOW_BASELINE = SIGNING_LABEL_ROOM - SIGNING_LABEL_SIZE - 2;

/**
 * This signer's empty boxes as marks to find in the PDF: each box prints its label
 * ("Signature · Signer 1") inside its bottom, so the label says where the box is. A box narrowed
 * by a table cell is marked at its full width.
 */
export function signerBoxMarks(fields: readonly Pick<TSigningField, 'type'>[], role: number): TPdfMark[] {
  const types = [...new Set(fields.map((field) => field.type))];
  return types.map((type) => {
    const { w, h } = SIGNING_BOX_SIZES[type];
    // A signature or initials label is inset in its box; a date or name label starts with its line.
    const left = type === 'signature' || type === 'initials' ? -SIGNING_BOX_PAD : 0;
    return { text: signingBoxLabel(type, role), box: { left, bottom: -BELOW_BASELINE, width: w, height: h } };
  });
}
