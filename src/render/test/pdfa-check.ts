import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NS, readPdfDate, readXmp, readXmpDate, xmpValue, type TXmpPacket } from './xmp-read.ts';

/*
 * The PDF/A-2 rules that apply to what Formwork writes, checked on the file's objects as qpdf
 * reads them (`qpdf --json`, a parser that shares no code with our writer) and on the Info
 * dictionary as pdf.js reads it:
 *
 * - The header; a file identifier; no encryption.
 * - An XMP packet that parses, claims PDF/A-2 level A and PDF/UA-1, declares the pdfuaid schema,
 *   and agrees with the Info dictionary (title, tools, dates: the same instant and offset).
 * - An output intent GTS_PDFA1 whose profile is a valid RGB ICC profile with /N 3.
 * - No JavaScript, no additional actions, no action PDF/A forbids; annotations printable.
 * - Every font embedded, with a ToUnicode map giving each of its glyphs a valid Unicode value.
 * - No image in DeviceCMYK under an RGB intent, none interpolated.
 */

type TJson = null | boolean | number | string | TJson[] | { [key: string]: TJson };
type TDict = { [key: string]: TJson };
interface TStream {
  dict: TDict;
  data: Buffer;
}

const isDict = (v: TJson | undefined): v is TDict => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRef = (v: TJson | undefined): v is string => typeof v === 'string' && /^\d+ \d+ R$/.test(v);

/** The file's objects as `qpdf --json` gives them, with stream data decoded. */
class PdfObjects {
  readonly trailer: TDict;
  private readonly byRef = new Map<string, { value?: TJson; stream?: { dict: TDict; data?: string } }>();

  constructor(pdf: Uint8Array) {
    const dir = mkdtempSync(join(tmpdir(), 'fw-pdfa-'));
    try {
      const file = join(dir, 'doc.pdf');
      writeFileSync(file, pdf);
      const r = spawnSync('qpdf', ['--json=2', '--json-stream-data=inline', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
      // 3: read with warnings, which `qpdf --check` reports elsewhere; the objects are still there.
      if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf --json failed (${r.status}): ${r.stderr}`);
      const objects = (JSON.parse(r.stdout) as { qpdf: [unknown, Record<string, { value?: TJson; stream?: { dict: TDict; data?: string } }>] }).qpdf[1];
      for (const [key, object] of Object.entries(objects)) this.byRef.set(key.replace(/^obj:/, ''), object);
      const trailer = this.byRef.get('trailer')?.value;
      this.trailer = isDict(trailer) ? trailer : {};
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** A value with a reference followed (a stream stands for its dictionary). */
  resolve(v: TJson | undefined): TJson | undefined {
    if (!isRef(v)) return v;
    const object = this.byRef.get(v);
    return object?.stream ? object.stream.dict : object?.value;
  }

  dict(v: TJson | undefined): TDict | undefined {
    const d = this.resolve(v);
    return isDict(d) ? d : undefined;
  }

  stream(v: TJson | undefined): TStream | undefined {
    const s = isRef(v) ? this.byRef.get(v)?.stream : undefined;
    return s ? { dict: s.dict, data: Buffer.from(s.data ?? '', 'base64') } : undefined;
  }

  /** Every dictionary in the file, with the key it is the value of (for actions). */
  *dictionaries(): Generator<{ dict: TDict; key: string }> {
    const walk = function* (v: TJson, key: string): Generator<{ dict: TDict; key: string }> {
      if (Array.isArray(v)) for (const item of v) yield* walk(item, key);
      else if (isDict(v)) {
        yield { dict: v, key };
        for (const [k, item] of Object.entries(v)) yield* walk(item, k);
      }
    };
    for (const [ref, object] of this.byRef) {
      if (ref === 'trailer') continue;
      if (object.stream) yield* walk(object.stream.dict, '');
      else if (object.value !== undefined) yield* walk(object.value, '');
    }
  }
}

/** What pdf.js reads from the Info dictionary (dates as written, `D:…`). */
export type TInfo = Record<string, unknown>;

/** Info keys and the XMP properties PDF/A requires to hold the same value. */
const INFO_IN_XMP: [key: string, uri: string, name: string, kind: 'text' | 'date'][] = [
  ['Title', NS.dc, 'title', 'text'],
  ['Author', NS.dc, 'creator', 'text'],
  ['Subject', NS.dc, 'description', 'text'],
  ['Keywords', NS.pdf, 'Keywords', 'text'],
  ['Creator', NS.xmp, 'CreatorTool', 'text'],
  ['Producer', NS.pdf, 'Producer', 'text'],
  ['CreationDate', NS.xmp, 'CreateDate', 'date'],
  ['ModDate', NS.xmp, 'ModifyDate', 'date'],
];

function xmpFindings(packet: TXmpPacket, info: TInfo): string[] {
  const findings: string[] = [];
  const value = (uri: string, name: string) => xmpValue(packet, uri, name)?.trim();
  if (value(NS.pdfaid, 'part') !== '2') findings.push(`XMP does not claim PDF/A-2 (pdfaid:part is ${value(NS.pdfaid, 'part') ?? 'missing'}).`);
  if (value(NS.pdfaid, 'conformance') !== 'A')
    findings.push(`XMP does not claim level A (pdfaid:conformance is ${value(NS.pdfaid, 'conformance') ?? 'missing'}).`);
  if (value(NS.pdfuaid, 'part') !== '1') findings.push(`XMP does not claim PDF/UA-1 (pdfuaid:part is ${value(NS.pdfuaid, 'part') ?? 'missing'}).`);
  if (!packet.declaresPdfUa) findings.push('XMP has no extension schema for pdfuaid (namespace, prefix, part as an internal Integer).');
  for (const name of packet.forbiddenHeaderAttributes) findings.push(`The XMP packet header has a ${name} attribute.`);
  for (const [key, uri, name, kind] of INFO_IN_XMP) {
    const inInfo = info[key];
    if (typeof inInfo !== 'string') continue;
    const inXmp = xmpValue(packet, uri, name);
    if (inXmp === undefined) {
      findings.push(`Info /${key} has no counterpart in XMP (${name}).`);
      continue;
    }
    if (kind === 'text' && inXmp !== inInfo) findings.push(`Info /${key} ${JSON.stringify(inInfo)} differs from XMP ${name} ${JSON.stringify(inXmp)}.`);
    if (kind === 'date') {
      const [a, b] = [readPdfDate(inInfo), readXmpDate(inXmp)];
      if (!a || !b || a.at !== b.at || a.offsetMinutes !== b.offsetMinutes)
        findings.push(`Info /${key} ${inInfo} is not the instant and offset of XMP ${name} ${inXmp}.`);
    }
  }
  return findings;
}

/** The Unicode text of each code a ToUnicode CMap maps (bfchar and bfrange). */
function toUnicodeMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const text = (hex: string) =>
    Buffer.from(hex.length % 4 === 0 ? hex : `00${hex}`, 'hex')
      .swap16()
      .toString('utf16le');
  for (const [, body] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, value] of body!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>/g)) map.set(parseInt(code!, 16), text(value!));
  }
  for (const [, body] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, lo, hi, dst] of body!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(<[0-9a-fA-F]*>|\[[^\]]*\])/g)) {
      const [from, to] = [parseInt(lo!, 16), parseInt(hi!, 16)];
      const list = dst!.startsWith('[') ? [...dst!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => text(m[1]!)) : null;
      for (let code = from; code <= to; code++) {
        if (list) map.set(code, list[code - from] ?? '');
        else {
          const base = text(dst!.slice(1, -1));
          map.set(code, base.slice(0, -1) + String.fromCharCode(base.charCodeAt(base.length - 1) + code - from));
        }
      }
    }
  }
  return map;
}

/** Content-stream tokens: hex strings, literal strings (no nested parentheses), names, numbers, arrays, dictionaries, operators. */
const TOKEN = /<<|>>|\[|\]|<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)|\/[^\s/[\]()<>{}%]*|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'"*]+|%[^\r\n]*/g;

/** The codes each font draws, by its object: read from every page's content as its text operators name them. */
function drawnCodes(objects: PdfObjects): Map<string, { twoByte: boolean; codes: Set<number> }> {
  const drawn = new Map<string, { twoByte: boolean; codes: Set<number> }>();
  for (const { dict: page } of objects.dictionaries()) {
    if (page['/Type'] !== '/Page') continue;
    let resources = objects.dict(page['/Resources']);
    for (let up = objects.dict(page['/Parent']); !resources && up; up = objects.dict(up['/Parent'])) resources = objects.dict(up['/Resources']);
    const fonts = objects.dict(resources?.['/Font']) ?? {};
    const contents = objects.resolve(page['/Contents']);
    const streams = (Array.isArray(contents) ? contents : [page['/Contents']]).map((ref) => objects.stream(ref)?.data.toString('latin1') ?? '');
    let font: { twoByte: boolean; codes: Set<number> } | undefined;
    let operands: string[] = [];
    for (const [token] of streams.join('\n').matchAll(TOKEN)) {
      if (!/^[A-Za-z'"*]/.test(token)) {
        operands.push(token);
        continue;
      }
      if (token === 'Tf') {
        const ref = fonts[operands.at(-2) ?? ''];
        const key = isRef(ref) ? ref : '';
        const twoByte = objects.dict(ref)?.['/Subtype'] === '/Type0';
        font = drawn.get(key) ?? { twoByte, codes: new Set() };
        drawn.set(key, font);
      } else if (['TJ', 'Tj', "'", '"'].includes(token) && font) {
        for (const operand of operands) {
          if (!operand.startsWith('<')) continue;
          const hex = operand.slice(1, -1).replace(/\s/g, '');
          const width = font.twoByte ? 4 : 2;
          for (let i = 0; i + width <= hex.length; i += width) font.codes.add(parseInt(hex.slice(i, i + width), 16));
        }
      }
      operands = [];
    }
  }
  return drawn;
}

function fontFindings(objects: PdfObjects): string[] {
  const findings: string[] = [];
  const drawn = drawnCodes(objects);
  for (const [ref, { codes }] of drawn) {
    const font = objects.dict(ref);
    if (!font || font['/Subtype'] === '/Type3') continue;
    const name = String(font['/BaseFont'] ?? font['/Subtype']).replace(/^\//, '');
    const descendant = font['/Subtype'] === '/Type0' ? objects.dict((objects.resolve(font['/DescendantFonts']) as TJson[] | undefined)?.[0]) : font;
    const descriptor = objects.dict(descendant?.['/FontDescriptor']);
    if (!descriptor || !['/FontFile', '/FontFile2', '/FontFile3'].some((k) => descriptor[k] !== undefined)) findings.push(`Font ${name} is not embedded.`);
    if (descendant?.['/Subtype'] === '/CIDFontType2' && descendant['/CIDToGIDMap'] === undefined) findings.push(`Font ${name} has no /CIDToGIDMap.`);
    const toUnicode = objects.stream(font['/ToUnicode']);
    if (!toUnicode) {
      const standard = ['/WinAnsiEncoding', '/MacRomanEncoding', '/MacExpertEncoding'].includes(String(font['/Encoding']));
      if (!standard) findings.push(`Font ${name} has no ToUnicode map.`);
      continue;
    }
    const map = toUnicodeMap(toUnicode.data.toString('latin1'));
    // With Identity-H and CIDToGIDMap Identity, as our writer makes them, code 0 is the .notdef glyph.
    if (font['/Subtype'] === '/Type0' && codes.has(0)) findings.push(`Font ${name} draws .notdef (glyph 0).`);
    const unmapped = [...codes].filter((code) => code !== 0 && !map.get(code));
    if (unmapped.length > 0) findings.push(`Font ${name}: codes ${unmapped.slice(0, 10).join(', ')} are drawn without a Unicode value.`);
    const invalid = [...codes].filter((code) => /[\u0000\ufeff\ufffe]/.test(map.get(code) ?? ''));
    if (invalid.length > 0) findings.push(`Font ${name}: codes ${invalid.slice(0, 10).join(', ')} map to U+0000, U+FEFF or U+FFFE.`);
  }
  return findings;
}

/** Actions PDF/A-2 allows; the rest (JavaScript, Launch, …) may run or fetch something. */
const ALLOWED_ACTIONS = new Set(['/GoTo', '/GoToR', '/GoToE', '/Thread', '/URI', '/Named', '/SubmitForm']);

function interactiveFindings(objects: PdfObjects): string[] {
  const findings = new Set<string>();
  for (const { dict, key } of objects.dictionaries()) {
    if (dict['/JS'] !== undefined || dict['/JavaScript'] !== undefined) findings.add('The document has JavaScript (/JS or /JavaScript).');
    if (dict['/AA'] !== undefined) findings.add('The document has additional actions (/AA).');
    if (['/A', '/OpenAction', '/Next'].includes(key) && typeof dict['/S'] === 'string' && !ALLOWED_ACTIONS.has(dict['/S']))
      findings.add(`The document has a ${dict['/S'].slice(1)} action, which PDF/A-2 forbids.`);
    const annotations = objects.resolve(dict['/Annots']);
    for (const annotation of Array.isArray(annotations) ? annotations.map((a) => objects.dict(a) ?? {}) : []) {
      const flags = typeof annotation['/F'] === 'number' ? annotation['/F'] : null;
      const subtype = String(annotation['/Subtype']);
      // Print set; Invisible, Hidden, NoView and ToggleNoView clear.
      if (subtype !== '/Popup' && (flags === null || (flags & 4) === 0 || (flags & (1 | 2 | 32 | 256)) !== 0))
        findings.add(`A ${subtype.slice(1)} annotation is not set to print, or is hidden (/F).`);
      if (!['/Popup', '/Link'].includes(subtype) && annotation['/AP'] === undefined) findings.add(`A ${subtype.slice(1)} annotation has no appearance (/AP).`);
    }
  }
  return [...findings];
}

function imageFindings(objects: PdfObjects, intentSpace: string | undefined): string[] {
  const findings = new Set<string>();
  for (const { dict } of objects.dictionaries()) {
    if (dict['/Subtype'] !== '/Image') continue;
    if (dict['/Interpolate'] === true) findings.add('An image asks to be interpolated (/Interpolate true).');
    const space = JSON.stringify(objects.resolve(dict['/ColorSpace']) ?? null);
    if (space.includes('"/DeviceCMYK"') && intentSpace !== 'CMYK') findings.add('An image is in DeviceCMYK, which the output intent does not define.');
  }
  return [...findings];
}

/** The output intent's profile: its colour space (from the ICC header) and what is wrong with it. */
function outputIntentFindings(objects: PdfObjects, catalog: TDict): { findings: string[]; space?: string } {
  const intents = objects.resolve(catalog['/OutputIntents']);
  const pdfa = (Array.isArray(intents) ? intents : []).map((i) => objects.dict(i)).filter((i) => i?.['/S'] === '/GTS_PDFA1');
  if (pdfa.length === 0) return { findings: ['The catalog has no PDF/A output intent (/OutputIntents with /S /GTS_PDFA1).'] };
  const profiles = new Set(pdfa.map((i) => JSON.stringify(i!['/DestOutputProfile'] ?? null)));
  if (profiles.size > 1) return { findings: ['The PDF/A output intents name different profiles.'] };
  const profile = objects.stream(pdfa[0]!['/DestOutputProfile']);
  if (!profile) return { findings: ['The PDF/A output intent has no ICC profile (/DestOutputProfile).'] };
  const header = profile.data;
  const deviceClass = header.toString('latin1', 12, 16);
  const space = header.toString('latin1', 16, 20).trim();
  const findings: string[] = [];
  if (header.length < 128 || header.toString('latin1', 36, 40) !== 'acsp' || header[8]! >= 5)
    findings.push('The output intent profile is not an ICC profile of version 2 to 4.');
  if (!['mntr', 'prtr'].includes(deviceClass)) findings.push(`The output intent profile is of class ${deviceClass}, not a display or printer profile.`);
  if (space !== 'RGB' || profile.dict['/N'] !== 3)
    findings.push(`The output intent profile is not RGB with /N 3 (${space}, /N ${String(profile.dict['/N'])}).`);
  return { findings, space };
}

/**
 * The PDF/A-2a findings for a file: `info` is its Info dictionary as pdf.js reads it, and
 * `xmpReadable` whether pdf.js could read its XMP (a second parser beside ours).
 */
export function pdfaFindings(pdf: Uint8Array, info: TInfo, xmpReadable: boolean): string[] {
  const findings: string[] = [];
  const header = /^%PDF-1\.[0-7](?:\r\n|\r|\n)%/.exec(Buffer.from(pdf.subarray(0, 16)).toString('latin1'));
  const binary = header ? pdf.subarray(header[0].length, header[0].length + 4) : [];
  if (binary.length < 4 || [...binary].some((b) => b <= 127)) findings.push('The header is not %PDF-1.n followed by a comment of four bytes above 127.');
  const objects = new PdfObjects(pdf);
  const id = objects.trailer['/ID'];
  if (!Array.isArray(id) || id.length !== 2 || id.some((part) => typeof part !== 'string' || part.length <= 2))
    findings.push('The trailer has no file identifier (/ID).');
  if (objects.trailer['/Encrypt'] !== undefined) findings.push('The document is encrypted (/Encrypt).');
  const catalog = objects.dict(objects.trailer['/Root']) ?? {};

  const metadata = objects.stream(catalog['/Metadata']);
  if (!metadata) findings.push('The catalog has no XMP metadata stream (/Metadata).');
  else {
    if (metadata.dict['/Type'] !== '/Metadata' || metadata.dict['/Subtype'] !== '/XML')
      findings.push('The metadata stream is not /Type /Metadata /Subtype /XML.');
    if (metadata.dict['/Filter'] !== undefined) findings.push('The metadata stream is compressed, so tools that do not read PDF cannot find it.');
    if (!xmpReadable) findings.push('pdf.js cannot read the XMP metadata.');
    try {
      findings.push(...xmpFindings(readXmp(metadata.data.toString('utf8')), info));
    } catch (e) {
      findings.push(`The XMP metadata is not well-formed XML: ${(e as Error).message}`);
    }
  }
  const intent = outputIntentFindings(objects, catalog);
  findings.push(...intent.findings, ...interactiveFindings(objects), ...fontFindings(objects), ...imageFindings(objects, intent.space));
  return findings;
}
