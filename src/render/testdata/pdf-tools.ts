import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';

/*
 * Test helpers around poppler-utils and qpdf: every PDF a test inspects goes through
 * `qpdf --check` first, so validity is asserted on every output without each test repeating it.
 */

function withFile<T>(pdf: Uint8Array, fn: (path: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'fw-render-'));
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, pdf);
    return fn(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Throws with qpdf's report unless the file passes `qpdf --check` without warnings. */
export function assertValidPdf(pdf: Uint8Array): void {
  withFile(pdf, (path) => {
    const r = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
    // Exit 0: fine; 3: warnings; 2: errors. Warnings count as failures here.
    if (r.status !== 0) throw new Error(`qpdf --check failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  });
}

export function pdfText(pdf: Uint8Array, opts: { layout?: boolean; first?: number; last?: number } = {}): string {
  assertValidPdf(pdf);
  return withFile(pdf, (path) => {
    const args = ['-enc', 'UTF-8'];
    if (opts.layout) args.push('-layout');
    if (opts.first) args.push('-f', String(opts.first));
    if (opts.last) args.push('-l', String(opts.last));
    return execFileSync('pdftotext', [...args, path, '-'], { encoding: 'utf8' });
  });
}

/** Text per page, in order. */
export function pdfPages(pdf: Uint8Array): string[] {
  return pdfText(pdf).split('\f').slice(0, -1);
}

export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  assertValidPdf(pdf);
  return withFile(pdf, (path) => {
    const out = execFileSync('pdfinfo', ['-isodates', path], { encoding: 'utf8' });
    const info: Record<string, string> = {};
    for (const line of out.split('\n')) {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      if (m) info[m[1]!.trim()] = m[2]!.trim();
    }
    return info;
  });
}

/**
 * The structure tree as poppler reads it (`pdfinfo -struct-text`), a reader independent of our own
 * check: each element's role at its depth, and the text poppler gives each, in the tree's order.
 */
export function pdfStructure(pdf: Uint8Array): { elements: { role: string; depth: number; text: string }[]; text: string } {
  assertValidPdf(pdf);
  const out = withFile(pdf, (path) => execFileSync('pdfinfo', ['-struct-text', path], { encoding: 'utf8' }));
  const elements: { role: string; depth: number; text: string }[] = [];
  const texts: string[] = [];
  const open: { depth: number; element: { text: string } }[] = [];
  for (const line of out.split('\n')) {
    const depth = line.length - line.trimStart().length;
    const body = line.trim();
    const quoted = /^"(.*)"$/.exec(body);
    if (quoted) {
      // The line belongs to every element that encloses it.
      for (const { element } of open) element.text += (element.text ? ' ' : '') + quoted[1]!;
      texts.push(quoted[1]!);
      continue;
    }
    const role = /^([A-Za-z][A-Za-z0-9]*)(?::| \(|$)/.exec(body);
    if (!role) continue; // an attribute line (`/Scope /Column`) or a blank
    while (open.length > 0 && open.at(-1)!.depth >= depth) open.pop();
    const element = { role: role[1]!, depth, text: '' };
    elements.push(element);
    open.push({ depth, element });
  }
  return { elements, text: texts.join('\n') };
}

/** The XMP metadata packet as `pdfinfo -meta` prints it (empty when there is none). */
export function pdfXmp(pdf: Uint8Array): string {
  assertValidPdf(pdf);
  return withFile(pdf, (path) => execFileSync('pdfinfo', ['-meta', path], { encoding: 'utf8' }));
}

export interface FontRow {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  unicode: boolean;
}

export function pdfFonts(pdf: Uint8Array): FontRow[] {
  assertValidPdf(pdf);
  return withFile(pdf, (path) => {
    const out = execFileSync('pdffonts', [path], { encoding: 'utf8' });
    return out
      .split('\n')
      .slice(2)
      .filter((l) => l.trim().length > 0)
      .map((l) => {
        const cols = l.trim().split(/\s+/);
        // name, type words..., encoding, emb, sub, uni, object, id
        const n = cols.length;
        return {
          name: cols[0]!,
          type: cols.slice(1, n - 6).join(' '),
          embedded: cols[n - 5] === 'yes',
          subset: cols[n - 4] === 'yes',
          unicode: cols[n - 3] === 'yes',
        };
      });
  });
}

/** The PDF with every stream decompressed, for asserting on operators and dictionaries. */
export function pdfQdf(pdf: Uint8Array): string {
  assertValidPdf(pdf);
  return withFile(pdf, (path, dir) => {
    const out = join(dir, 'qdf.pdf');
    execFileSync('qpdf', ['--qdf', '--object-streams=disable', path, out]);
    return readFileSync(out, 'latin1');
  });
}

export interface Raster {
  width: number;
  height: number;
  data: Buffer;
  png: Buffer;
}

/** Rasterises pages with pdftoppm (RGBA pixels, and the PNG file itself). */
export function pdfRaster(pdf: Uint8Array, dpi = 50): Raster[] {
  assertValidPdf(pdf);
  return withFile(pdf, (path, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', path, join(dir, 'page')]);
    return readdirSync(dir)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .sort()
      .map((f) => {
        const png = readFileSync(join(dir, f));
        const img = PNG.sync.read(png);
        return { width: img.width, height: img.height, data: img.data, png };
      });
  });
}

/** Fraction of pixels whose channels differ by more than `threshold` (0..255). */
export function pixelDiff(a: Raster, b: Raster, threshold = 48): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.max(Math.abs(a.data[i]! - b.data[i]!), Math.abs(a.data[i + 1]! - b.data[i + 1]!), Math.abs(a.data[i + 2]! - b.data[i + 2]!));
    if (d > threshold) differing++;
  }
  return differing / (a.width * a.height);
}

export function decodePng(png: Buffer): Raster {
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, data: img.data, png };
}

/** A small RGBA PNG: a red square with a transparent border. */
export function makeAlphaPng(size = 24): Buffer {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inner = x >= 4 && y >= 4 && x < size - 4 && y < size - 4;
      png.data[i] = 220;
      png.data[i + 1] = 30;
      png.data[i + 2] = 30;
      png.data[i + 3] = inner ? 255 : 0;
    }
  }
  return PNG.sync.write(png);
}

/** An opaque RGB PNG (colour type 2), which the renderer passes through without decoding. */
export function makeOpaquePng(width = 32, height = 16): Buffer {
  const png = new PNG({ width, height, colorType: 2, inputHasAlpha: true });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = 20;
    png.data[i * 4 + 1] = 90;
    png.data[i * 4 + 2] = 200;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png, { colorType: 2 });
}

/**
 * The smallest CMYK JPEG there is, as Adobe writes them (an APP14 marker, no colour transform): one
 * 8×8 block per ink, each a flat mid tone. Its Huffman tables have one code each, so the whole
 * scan is one byte.
 */
export function makeCmykJpeg(): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const oneCodeTable = (tableClass: number) => [(tableClass << 4) | 0, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xee, [...Buffer.from('Adobe'), 0, 100, 0, 0, 0, 0, 0]),
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, 0, 8, 0, 8, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0]),
    ...segment(0xc4, oneCodeTable(0)),
    ...segment(0xc4, oneCodeTable(1)),
    ...segment(0xda, [4, 1, 0, 2, 0, 3, 0, 4, 0, 0, 63, 0]),
    0x00,
    0xff,
    0xd9,
  ]);
}

export interface WordBox {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word with its box in points, from `pdftotext -bbox`. */
export function pdfWords(pdf: Uint8Array): WordBox[] {
  assertValidPdf(pdf);
  return withFile(pdf, (path) => {
    const html = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
    const words: WordBox[] = [];
    let page = 0;
    for (const line of html.split('\n')) {
      if (line.includes('<page ')) page++;
      const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
      if (m) words.push({ page, xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]!, text: m[5]! });
    }
    return words;
  });
}
