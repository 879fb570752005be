import { SIGNING_BOX_PAD, SIGNING_BOX_SIZES, SIGNING_LABEL_ROOM, SIGNING_LABEL_SIZE } from '../contract/signing.ts';
import { prepareImage } from './images.ts';
import type { DocumentCanvas } from './page-canvas.ts';
import type { TSigningBox } from './signing-fields.ts';
import { type BlockStyle, type Line, placeLine } from './text.ts';

const SIGN_BORDER = '#d1d5db';
const SIGN_MUTED = '#6b7280';
const SIGN_INK = '#111827';

/** A signing box's size, narrowed to `maxWidth` when it has less room (a table cell). */
export function signingBoxSize(box: TSigningBox, maxWidth: number): { w: number; h: number } {
  const size = SIGNING_BOX_SIZES[box.kind];
  return { w: Math.max(Math.min(size.w, maxWidth), 24), h: size.h };
}

/**
 * Draws a signing box at (x, top), at most `maxWidth` wide: a signature or initials box with a
 * baseline, or a short line for the date or the name. Empty, it carries its label; signed, the
 * signature (drawn image fitted, or typed text in the script face) with the name under it.
 */
export function drawSigningBox(
  draw: { canvas: DocumentCanvas; oneLine: (text: string, style: BlockStyle) => Line | undefined },
  box: TSigningBox,
  { x, top, maxWidth }: { x: number; top: number; maxWidth: number },
  style: BlockStyle,
): void {
  const { w, h } = signingBoxSize(box, maxWidth);
  const lineTop = top + h - SIGNING_LABEL_ROOM;
  const small: BlockStyle = { ...style, size: SIGNING_LABEL_SIZE, color: SIGN_MUTED, bold: false, italic: false, underline: false };
  const labelBaseline = lineTop + SIGNING_LABEL_SIZE + 2;
  if (box.kind === 'signature' || box.kind === 'initials') {
    draw.canvas.rect(x, top, w, h, { stroke: SIGN_BORDER, lineWidth: 0.5 });
    draw.canvas.hline(x + SIGNING_BOX_PAD, x + w - SIGNING_BOX_PAD, lineTop, SIGN_MUTED, 0.75);
    const mark = box.signed?.mark;
    const markW = w - 2 * SIGNING_BOX_PAD;
    const markH = lineTop - top - 4;
    if (mark?.type === 'image') {
      const img = prepareImage(mark.png);
      if (img) {
        // Fitted into the space above the line, keeping its proportions, resting on the line.
        const fit = Math.min(markW / img.width, markH / img.height);
        const dw = img.width * fit;
        const dh = img.height * fit;
        draw.canvas.image(img, x + SIGNING_BOX_PAD + (markW - dw) / 2, lineTop - 2 - dh, dw, dh);
      }
    } else if (mark?.type === 'typed') {
      const script: BlockStyle = {
        ...style,
        family: 'script',
        size: Math.min(markH * 0.8, 30),
        color: SIGN_INK,
        bold: false,
        italic: false,
        underline: false,
      };
      let line = draw.oneLine(mark.text, script);
      if (line && line.width > markW) {
        script.size *= markW / line.width;
        line = draw.oneLine(mark.text, script);
      }
      if (line) {
        placeLine(line, x + SIGNING_BOX_PAD, markW, 'left');
        draw.canvas.line(line, lineTop - 4);
      }
    }
    const under = box.signed ? draw.oneLine(box.signed.name, { ...small, color: SIGN_INK }) : draw.oneLine(box.label, small);
    if (under) {
      placeLine(under, x + SIGNING_BOX_PAD, markW, 'left');
      draw.canvas.line(under, labelBaseline);
    }
    return;
  }
  draw.canvas.hline(x, x + w, lineTop, SIGN_MUTED, 0.75);
  const value = box.signed ? (box.kind === 'signed_date' ? box.signed.date : box.signed.name) : '';
  const valueLine = value
    ? draw.oneLine(value, { ...style, size: Math.min(style.size, 11), color: SIGN_INK, bold: false, italic: false, underline: false })
    : undefined;
  if (valueLine) {
    placeLine(valueLine, x + 2, w - 4, 'left');
    draw.canvas.line(valueLine, lineTop - 3);
  }
  const label = draw.oneLine(box.label, small);
  if (label) {
    placeLine(label, x, w, 'left');
    draw.canvas.line(label, labelBaseline);
  }
}
