import { describe, expect, it } from 'vitest';
import { findMarks } from '../../../components/ui/pdf-marks';
import { signerBoxMarks } from './box-marks';

describe('signerBoxMarks', () => {
  it('names each of the signer’s kinds of box once, by its printed label and size', () => {
    const marks = signerBoxMarks([{ type: 'signature' }, { type: 'signer_name' }, { type: 'signature' }, { type: 'initials' }], 2);
    expect(marks).toEqual([
      { text: 'Signature · Signer 2', box: { left: -6, bottom: -3, width: 200, height: 56 } },
      { text: 'Name · Signer 2', box: { left: 0, bottom: -3, width: 180, height: 32 } },
      { text: 'Initials · Signer 2', box: { left: -6, bottom: -3, width: 90, height: 40 } },
    ]);
  });

  it('puts a date line’s box over the line its label sits under', () => {
    // drawSigningBox: a box at top 100 pt, 32 pt high, has its line at 120 and its label's baseline at 129 (top-down).
    const pageHeight = 842;
    const label = { str: 'Date · Signer 1', transform: [7, 0, 0, 7, 72, pageHeight - 129] };
    const [rect] = findMarks([label], signerBoxMarks([{ type: 'signed_date' }], 1), [1, 0, 0, -1, 0, pageHeight], 0);
    expect(rect).toEqual({ page: 0, left: 72, top: 100, width: 140, height: 32 });
  });

  it('has no marks for a signer with no boxes', () => {
    expect(signerBoxMarks([], 1)).toEqual([]);
  });
});
