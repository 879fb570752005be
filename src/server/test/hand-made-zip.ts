import { crc32, deflateRawSync } from 'node:zlib';

/*
 * A minimal ZIP writer for tests: archives written by hand so that they can be made to lie
 * (a declared size smaller than the data, a wrong CRC), as no library writes them on purpose.
 */

export interface TZipEntry {
  name: string;
  data: Buffer | string;
  /** Store instead of deflate. */
  store?: boolean;
  /** Bytes already deflated (raw deflate) for `data`; then `data` is only used for its CRC/size unless `size` is given. */
  deflated?: Buffer;
  /** Uncompressed size to declare instead of the real one (a lie, for zip bombs). */
  declaredSize?: number;
  crc?: number;
  /** zlib level (default 6). */
  level?: number;
}

/** A ZIP archive (no data descriptors, no ZIP64), written by hand so sizes can be made to lie. */
export function zipFrom(entries: readonly TZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const body = entry.deflated ?? (entry.store ? raw : deflateRawSync(raw, { level: entry.level ?? 6 }));
    const name = Buffer.from(entry.name, 'utf8');

    // From "version needed" to "extra field length", the local header and the central directory
    // say the same of an entry, in the same layout.
    const shared = Buffer.alloc(26);
    shared.writeUInt16LE(20, 0);
    shared.writeUInt16LE(0x0800, 2);
    shared.writeUInt16LE(entry.store && !entry.deflated ? 0 : 8, 4);
    shared.writeUInt32LE((entry.crc ?? crc32(raw)) >>> 0, 10);
    shared.writeUInt32LE(body.length, 14);
    shared.writeUInt32LE((entry.declaredSize ?? raw.length) >>> 0, 18);
    shared.writeUInt16LE(name.length, 22);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared.copy(local, 4);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    shared.copy(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
