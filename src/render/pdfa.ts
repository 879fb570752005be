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

let srgbProfile: Uint8Array | undefined;

/** Read and compressed once per process, on the first tagged document. */
function compressedSrgbProfile(): Uint8Array {
  srgbProfile ??= deflateSync(readFileSync(new URL(`./${SRGB_PROFILE_FILE}`, import.meta.url)), { level: 9 });
  return srgbProfile;
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
  w.stream(profile, '/N 3 /Filter /FlateDecode', compressedSrgbProfile());
  const intent = `<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier ${SRGB_CONDITION} /Info ${SRGB_CONDITION} /DestOutputProfile ${profile} 0 R >>`;
  return ` /Metadata ${metadata} 0 R /OutputIntents [${intent}]`;
}
