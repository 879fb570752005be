import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { PdfWriter } from './pdf-writer.ts';
import { srgbProfile } from './srgb-profile.ts';
import { xmpPacket, type TXmpFields } from './xmp.ts';

/*
 * What a tagged document adds to be PDF/A-2a as well: the XMP metadata stream and an sRGB output
 * intent, which gives the DeviceRGB and DeviceGray colours of the page a defined meaning.
 */

/**
 * A compact CMYK profile (cgats001-compat-v2-micro.notice.txt), for CMYK JPEGs in PDF/A. It sits
 * beside this module, so the renderer reads nothing outside its own folder. Bundles find it beside
 * themselves: scripts/build-server.ts copies it next to every bundle it writes.
 */
export const CMYK_PROFILE_FILE = 'cgats001-compat-v2-micro.icc';
/** The files the renderer reads from beside itself, which a bundle must have beside it. */
export const RENDER_DATA_FILES = [CMYK_PROFILE_FILE] as const;

let compressedSrgb: Uint8Array | undefined;
let compressedCmyk: Uint8Array | undefined;
/** Built or read, and compressed, once per process, when a document first needs it. */
const compressed = (profile: () => Uint8Array) => deflateSync(profile(), { level: 9 });

export const DEVICE_CMYK = '/ColorSpace /DeviceCMYK';

/**
 * The colour space a CMYK image takes in a PDF/A document, whose output intent is sRGB: PDF/A
 * allows a device colour space only when the output intent is of that kind, and an ICC-based one
 * always. The profile is CGATS TR 001 (SWOP), what an untagged CMYK JPEG is taken to be anyway.
 */
export function writeCmykColourSpace(w: PdfWriter): string {
  const profile = w.alloc();
  compressedCmyk ??= compressed(() => readFileSync(new URL(`./${CMYK_PROFILE_FILE}`, import.meta.url)));
  w.stream(profile, '/N 4 /Filter /FlateDecode', compressedCmyk);
  return `[/ICCBased ${profile} 0 R]`;
}

/** The OutputIntent's names for the condition, as PDF/A validators and prepress tools know them. */
const SRGB_CONDITION = '(sRGB IEC61966-2.1)';

/**
 * Writes the metadata stream and the profile, and returns the catalog entries that point to them.
 * The metadata stream stays uncompressed so that tools that do not parse PDF can still find it.
 */
export function writeArchivalParts(w: PdfWriter, fields: TXmpFields): string {
  const metadata = w.alloc();
  w.stream(metadata, '/Type /Metadata /Subtype /XML', xmpPacket(fields));
  const profile = w.alloc();
  compressedSrgb ??= compressed(srgbProfile);
  w.stream(profile, '/N 3 /Filter /FlateDecode', compressedSrgb);
  const intent = `<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier ${SRGB_CONDITION} /Info ${SRGB_CONDITION} /DestOutputProfile ${profile} 0 R >>`;
  return ` /Metadata ${metadata} 0 R /OutputIntents [${intent}]`;
}
