import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { PdfWriter } from './pdf-writer.ts';
import { xmpPacket, type TXmpFields } from './xmp.ts';

/*
 * What a tagged document adds to be PDF/A-2a as well: the XMP metadata stream and an sRGB output
 * intent, which gives the DeviceRGB and DeviceGray colours of the page a defined meaning.
 */

/**
 * The profile sits beside this module (see srgb-iec61966-2-1.notice.txt for where it comes from
 * and its terms), so the renderer reads nothing outside its own folder. Bundles find it beside
 * themselves: scripts/build-server.ts copies it next to every bundle it writes.
 */
export const SRGB_PROFILE_FILE = 'srgb-iec61966-2-1.icc';
/** A compact CMYK profile (cgats001-compat-v2-micro.notice.txt), for CMYK JPEGs in PDF/A. */
export const CMYK_PROFILE_FILE = 'cgats001-compat-v2-micro.icc';
/** The files the renderer reads from beside itself, which a bundle must have beside it. */
export const RENDER_DATA_FILES = [SRGB_PROFILE_FILE, CMYK_PROFILE_FILE] as const;

const profiles = new Map<string, Uint8Array>();

/** Read and compressed once per process, when a document first needs it. */
function compressedProfile(file: string): Uint8Array {
  let profile = profiles.get(file);
  if (!profile) {
    profile = deflateSync(readFileSync(new URL(`./${file}`, import.meta.url)), { level: 9 });
    profiles.set(file, profile);
  }
  return profile;
}

export const DEVICE_CMYK = '/ColorSpace /DeviceCMYK';

/**
 * The colour space a CMYK image takes in a PDF/A document, whose output intent is sRGB: PDF/A
 * allows a device colour space only when the output intent is of that kind, and an ICC-based one
 * always. The profile is CGATS TR 001 (SWOP), what an untagged CMYK JPEG is taken to be anyway.
 */
export function writeCmykColourSpace(w: PdfWriter): string {
  const profile = w.alloc();
  w.stream(profile, '/N 4 /Filter /FlateDecode', compressedProfile(CMYK_PROFILE_FILE));
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
  w.stream(profile, '/N 3 /Filter /FlateDecode', compressedProfile(SRGB_PROFILE_FILE));
  const intent = `<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier ${SRGB_CONDITION} /Info ${SRGB_CONDITION} /DestOutputProfile ${profile} 0 R >>`;
  return ` /Metadata ${metadata} 0 R /OutputIntents [${intent}]`;
}
