import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundleForNode, PROJECT_ROOT } from '../../scripts/build-server.ts';
import { exampleData } from '../contract/example-data.ts';
import { ZRenderableFormat } from '../contract/format-content.ts';
import { STARTER_FORMATS } from '../contract/starter-formats.ts';
import { renderPdf, type TRenderableFormat } from './index.ts';
import { CMYK_PROFILE_FILE } from './pdfa.ts';
import { readIccProfile } from './test/icc-read.ts';
import { checkAccessibility } from './test/pdf-accessibility-check.ts';
import { NS, readXmp, xmpValue } from './test/xmp-read.ts';
import { assertValidPdf, makeCmykJpeg, pdfInfo, pdfXmp } from './testdata/pdf-tools.ts';

/*
 * Tagged documents are PDF/A-2a as well (docs/accessible-pdf.md): XMP metadata that agrees with
 * the Info dictionary, an sRGB output intent, a file identifier from the content. Untagged ones
 * keep their bytes (legacy-output.test.ts and signing-fields.test.ts hold those).
 */

const created = new Date('2026-03-04T05:06:07Z');
const accessible = (format: unknown): TRenderableFormat => {
  const parsed = ZRenderableFormat.parse(format);
  return { ...parsed, content: { ...parsed.content, accessible: true } as TRenderableFormat['content'] };
};
const offer = STARTER_FORMATS[0]!;
const render = (format: TRenderableFormat, title = 'A tagged document', data: Record<string, unknown> = exampleData(offer.placeholders)) =>
  renderPdf({ format, data, meta: { title, creationDate: created } }).pdf;
const latin1 = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1');
/** The document's XMP packet, which is written uncompressed. */
const xmpOf = (pdf: Uint8Array) => {
  const text = latin1(pdf);
  const xml = text.slice(text.indexOf('<?xpacket begin'), text.indexOf('<?xpacket end="w"?>') + 19);
  return Buffer.from(xml, 'latin1').toString('utf8');
};
/** The same bytes with one stretch of the XMP replaced by another of the same length, so every offset holds. */
const doctored = (pdf: Uint8Array, from: string, to: string) => {
  expect(Buffer.byteLength(to)).toBe(Buffer.byteLength(from));
  const bytes = Buffer.from(pdf);
  const at = bytes.indexOf(Buffer.from(from), bytes.indexOf('<?xpacket begin'));
  expect(at).toBeGreaterThan(0);
  Buffer.from(to).copy(bytes, at);
  assertValidPdf(bytes);
  return new Uint8Array(bytes);
};

describe('a tagged document is PDF/A-2a', () => {
  it.each(STARTER_FORMATS.map((s) => [s.name, s] as const))('%s passes the PDF/A check, qpdf and pdfinfo', async (_name, starter) => {
    const pdf = render(accessible(starter), starter.name, exampleData(starter.placeholders));
    const info = pdfInfo(pdf);
    expect(info['Metadata Stream']).toBe('yes');
    expect(info.Title).toBe(starter.name);
    expect(info.CreationDate).toBe('2026-03-04T05:06:07Z');
    expect((await checkAccessibility(pdf)).pdfa).toEqual([]);
  });

  it('says in XMP what the Info dictionary says, with its own text escaped', async () => {
    const title = 'Offer <draft> & “final”\r\nfor Zoë\u0007 — 合同';
    const pdf = render(accessible(offer), title);
    const shown = 'Offer <draft> & “final”  for Zoë  — 合同';
    expect(pdfXmp(pdf)).toContain(
      '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Offer &lt;draft&gt; &amp; “final”  for Zoë  — 合同</rdf:li></rdf:Alt></dc:title>',
    );
    expect(pdfInfo(pdf).Title).toBe(shown);
    const packet = readXmp(xmpOf(pdf));
    expect(xmpValue(packet, NS.dc, 'title')).toBe(shown);
    expect(xmpValue(packet, NS.pdfaid, 'part')).toBe('2');
    expect(xmpValue(packet, NS.pdfaid, 'conformance')).toBe('A');
    expect(xmpValue(packet, NS.pdfuaid, 'part')).toBe('1');
    expect(xmpValue(packet, NS.dc, 'format')).toBe('application/pdf');
    expect(xmpValue(packet, NS.xmp, 'CreateDate')).toBe('2026-03-04T05:06:07Z');
    expect(xmpValue(packet, NS.xmp, 'ModifyDate')).toBe('2026-03-04T05:06:07Z');
    expect(xmpValue(packet, NS.xmp, 'CreatorTool')).toBe('Formwork');
    expect(xmpValue(packet, NS.pdf, 'Producer')).toBe('Formwork');
    expect(packet.declaresPdfUa).toBe(true);
    expect((await checkAccessibility(pdf)).pdfa).toEqual([]);
  });

  it('embeds an sRGB profile as its output intent that reads as the ICC sRGB2014 profile does', () => {
    const pdf = latin1(render(accessible(offer)));
    const intent =
      /\/OutputIntents \[<< \/Type \/OutputIntent \/S \/GTS_PDFA1 \/OutputConditionIdentifier \(sRGB IEC61966-2.1\) \/Info \(sRGB IEC61966-2.1\) \/DestOutputProfile (\d+) 0 R >>\]/.exec(
        pdf,
      );
    expect(intent).not.toBeNull();
    const object = new RegExp(`\\n${intent![1]} 0 obj\\n<< /N 3 /Filter /FlateDecode /Length (\\d+) >>\\nstream\\n`).exec(pdf);
    expect(object).not.toBeNull();
    const data = Buffer.from(pdf.slice(object!.index + object![0].length, object!.index + object![0].length + Number(object![1])), 'latin1');
    const profile = readIccProfile(inflateSync(data));
    expect(profile.size).toBeLessThan(600);
    expect(profile).toMatchObject({ version: 4, deviceClass: 'mntr', colourSpace: 'RGB ', connectionSpace: 'XYZ ', idMatches: true });
    expect(profile.description).toBe('sRGB IEC61966-2.1');

    // The ICC's sRGB2014 profile (v2, a 1,024-point tone curve), as pdfkit ships it: the same
    // colours within what 16-bit fixed point and rounded published matrices allow.
    const reference = readIccProfile(readFileSync(join(dirname(createRequire(import.meta.url).resolve('pdfkit')), 'data/sRGB_IEC61966_2_1.icc')));
    for (const name of ['wtpt', 'rXYZ', 'gXYZ', 'bXYZ'] as const) {
      profile[name].forEach((value, i) => expect(Math.abs(value - reference[name][i]!), name).toBeLessThan(0.0005));
    }
    for (let level = 0; level <= 255; level++) {
      expect(Math.abs(profile.tone(level / 255) - reference.tone(level / 255)), `tone at ${level}`).toBeLessThan(0.0005);
    }
  });

  it('gives the same bytes for the same snapshot and data, and another file identifier for other data', () => {
    const format = accessible(offer);
    const once = render(format);
    expect(Buffer.from(render(format)).equals(Buffer.from(once))).toBe(true);
    const id = (pdf: Uint8Array) => /\/ID \[<([0-9a-f]{32})> <\1>\]/.exec(latin1(pdf))?.[1];
    expect(id(once)).toMatch(/^[0-9a-f]{32}$/);
    expect(id(render(format, 'A tagged document', { ...exampleData(offer.placeholders), candidate_name: 'Someone Else' }))).not.toBe(id(once));
  });

  it('gives a CMYK JPEG a CMYK profile of its own, as PDF/A asks under an sRGB intent; an untagged document keeps DeviceCMYK', async () => {
    const photo = (tagged: boolean) => {
      const content = { content: { elements: [{ id: 'i', type: 'image', src: '/api/assets/cmyk', alt: 'A grey square', width: 80, height: 80 }] } };
      return renderPdf({
        format: tagged ? accessible(content) : ZRenderableFormat.parse(content),
        data: {},
        assets: { '/api/assets/cmyk': makeCmykJpeg() },
        meta: { title: 'CMYK', creationDate: created },
      });
    };
    const tagged = photo(true);
    expect(tagged.warnings).toEqual([]);
    assertValidPdf(tagged.pdf);
    expect((await checkAccessibility(tagged.pdf)).findings).toEqual([]);
    const text = latin1(tagged.pdf);
    const space = /\/ColorSpace \[\/ICCBased (\d+) 0 R\]/.exec(text);
    expect(space).not.toBeNull();
    const object = new RegExp(`\\n${space![1]} 0 obj\\n<< /N 4 /Filter /FlateDecode /Length (\\d+) >>\\nstream\\n`).exec(text);
    const data = Buffer.from(text.slice(object!.index + object![0].length, object!.index + object![0].length + Number(object![1])), 'latin1');
    const vendored = readFileSync(join(import.meta.dirname, CMYK_PROFILE_FILE));
    expect(inflateSync(data).equals(vendored)).toBe(true);
    const notice = readFileSync(join(import.meta.dirname, 'cgats001-compat-v2-micro.notice.txt'), 'utf8');
    expect(notice).toContain(createHash('sha256').update(vendored).digest('hex'));
    // Drawn as before: the same inks, inverted as Adobe writes them.
    expect(text).toContain('/Decode [1 0 1 0 1 0 1 0]');
    expect(latin1(photo(false).pdf)).toContain('/ColorSpace /DeviceCMYK');
  });

  it('is bundled with its profiles: the server bundle reads them from beside itself', async () => {
    // Inside the project, as the server's bundle is, so that its packages resolve from node_modules.
    const cache = join(PROJECT_ROOT, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'formwork-render-bundle-'));
    try {
      const bundle = join(dir, 'render.mjs');
      await bundleForNode(join(import.meta.dirname, 'index.ts'), bundle);
      const cmyk = accessible({ content: { elements: [{ id: 'i', type: 'image', src: '/api/assets/cmyk', alt: 'A grey square' }] } });
      const inputs = [
        { format: accessible(offer), data: exampleData(offer.placeholders), meta: { title: 'A tagged document', creationDate: created } },
        { format: cmyk, data: {}, assets: { '/api/assets/cmyk': makeCmykJpeg() }, meta: { title: 'CMYK', creationDate: created } },
      ];
      // In a process of its own: the bundle holds its own copy of the contract, whose named
      // schemas would join zod's global registry in this test worker, where a server test's
      // OpenAPI document would then meet two schemas of one name.
      const request = join(dir, 'inputs.json');
      writeFileSync(
        request,
        JSON.stringify(
          inputs.map((input) => ({ ...input, assets: Object.fromEntries(Object.entries(input.assets ?? {}).map(([k, v]) => [k, v.toString('base64')])) })),
        ),
      );
      const script = `
        import { readFileSync } from 'node:fs';
        const { renderPdf } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
        const inputs = JSON.parse(readFileSync(${JSON.stringify(request)}, 'utf8'));
        const pdfs = inputs.map((input) => {
          const assets = Object.fromEntries(Object.entries(input.assets).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
          const meta = { ...input.meta, creationDate: new Date(input.meta.creationDate) };
          return Buffer.from(renderPdf({ ...input, assets, meta }).pdf).toString('base64');
        });
        process.stdout.write(JSON.stringify(pdfs));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const bundled = (JSON.parse(output) as string[]).map((pdf) => Buffer.from(pdf, 'base64'));
      expect(bundled).toHaveLength(2);
      inputs.forEach((input, i) => expect(bundled[i]!.equals(Buffer.from(renderPdf(input).pdf))).toBe(true));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the PDF/A check', () => {
  it('finds an untagged document without XMP or an output intent, whose bytes have neither', async () => {
    const pdf = render(ZRenderableFormat.parse(offer));
    expect(latin1(pdf)).not.toMatch(/\/Metadata|\/OutputIntents|xpacket/);
    expect(pdfInfo(pdf)['Metadata Stream']).toBe('no');
    const { pdfa } = await checkAccessibility(pdf);
    expect(pdfa).toEqual([
      'The catalog has no XMP metadata stream (/Metadata).',
      'The catalog has no PDF/A output intent (/OutputIntents with /S /GTS_PDFA1).',
    ]);
  });

  it('finds an XMP title, date or part that the file does not bear out', async () => {
    const pdf = render(accessible(offer));
    const title = doctored(pdf, '>A tagged document<', '>A forged document<');
    expect((await checkAccessibility(title)).pdfa).toEqual(['Info /Title "A tagged document" differs from XMP title "A forged document".']);
    const date = doctored(pdf, '<xmp:CreateDate>2026-03-04T05:06:07Z', '<xmp:CreateDate>2026-03-04T06:06:07Z');
    expect((await checkAccessibility(date)).pdfa).toEqual([
      'Info /CreationDate D:20260304050607Z is not the instant and offset of XMP CreateDate 2026-03-04T06:06:07Z.',
    ]);
    const part = doctored(pdf, '<pdfaid:part>2<', '<pdfaid:part>3<');
    expect((await checkAccessibility(part)).pdfa).toEqual(['XMP does not claim PDF/A-2 (pdfaid:part is 3).']);
    const broken = doctored(pdf, '</pdfuaid:part>', '</pdfuaid:pert>');
    expect((await checkAccessibility(broken)).pdfa).toEqual([expect.stringMatching(/^The XMP metadata is not well-formed XML/)]);
  });

  it('finds a drawn .notdef: a character no bundled font has still breaks PDF/A in a tagged document', async () => {
    const pdf = renderPdf({
      format: accessible({ content: { elements: [{ id: 'p', type: 'paragraph', content: 'An amulet \u{1F9FF} here' }] } }),
      data: {},
      meta: { title: 'Missing glyph', creationDate: created },
    });
    expect(pdf.warnings.map((w) => w.code)).toEqual(['missing_glyphs']);
    expect((await checkAccessibility(pdf.pdf)).pdfa).toEqual([expect.stringMatching(/^Font [A-Z]{6}\+Arimo-400Regular draws \.notdef \(glyph 0\)\.$/)]);
  });
});
