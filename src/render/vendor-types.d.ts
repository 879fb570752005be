// Minimal typings for the parts of fontkit and linebreak the renderer uses; neither ships types.

declare module 'fontkit' {
  export interface Glyph {
    id: number;
    codePoints: number[];
    advanceWidth: number;
  }
  export interface GlyphPosition {
    xAdvance: number;
    yAdvance: number;
    xOffset: number;
    yOffset: number;
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    positions: GlyphPosition[];
    direction: 'ltr' | 'rtl';
    advanceWidth: number;
  }
  export interface Font {
    postscriptName: string | null;
    familyName: string;
    unitsPerEm: number;
    ascent: number;
    descent: number;
    lineGap: number;
    underlinePosition: number;
    underlineThickness: number;
    capHeight: number;
    italicAngle: number;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
    numGlyphs: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    getGlyph(id: number, codePoints?: number[]): Glyph;
    layout(text: string, features?: string[] | Record<string, boolean>, script?: string, language?: string, direction?: 'ltr' | 'rtl'): GlyphRun;
  }
  export function create(buffer: Uint8Array | Buffer, postscriptName?: string): Font;
}

declare module 'linebreak' {
  interface Break {
    position: number;
    required: boolean;
  }
  class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
  export default LineBreaker;
}
