/**
 * Opening an uploaded ZIP (an .xlsx, a .docx) without letting it unpack into more than the server
 * will hold: the central directory is listed and checked before anything is inflated, and reading
 * a part stops at its declared size, so a part that lies about its size is caught as it unpacks.
 * yauzl does the reading, streaming and asynchronously.
 */
import yauzl from 'yauzl';
import { AppError } from '../http/app-error.ts';

export type TZipRules = {
  maxEntries: number;
  maxUnpackedBytes: number;
  /** Deflate never shrinks real content more than this; past it, the size is a lie or a bomb. */
  maxRatio: number;
  messages: {
    corrupt: string;
    tooManyParts: string;
    passwordProtected: string;
    tooLarge: (unpackedBytes: number) => string;
  };
};

export type TCheckedZip = { zip: yauzl.ZipFile; entries: Map<string, yauzl.Entry> };

const refuse = (message: string) => new AppError('bad_request', message, { file: message });

function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: false }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    );
  });
}

/** Lists the archive (entries by lower-case name) and refuses oversized or inconsistent ones before inflating anything. */
export async function openCheckedZip(bytes: Buffer, rules: TZipRules): Promise<TCheckedZip> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(bytes);
  } catch {
    throw refuse(rules.messages.corrupt);
  }
  const entries = new Map<string, yauzl.Entry>();
  let declared = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.size >= rules.maxEntries) return reject(refuse(rules.messages.tooManyParts));
        if (entry.isEncrypted()) return reject(refuse(rules.messages.passwordProtected));
        declared += entry.uncompressedSize;
        if (entry.compressionMethod === 0 && entry.uncompressedSize !== entry.compressedSize) return reject(refuse(rules.messages.corrupt));
        if (entry.uncompressedSize > Math.max(entry.compressedSize, 1024) * rules.maxRatio) {
          return reject(refuse(rules.messages.tooLarge(entry.uncompressedSize)));
        }
        entries.set(entry.fileName.replace(/^\/+/, '').toLowerCase(), entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', () => reject(refuse(rules.messages.corrupt)));
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  if (declared > rules.maxUnpackedBytes) {
    zip.close();
    throw refuse(rules.messages.tooLarge(declared));
  }
  return { zip, entries };
}

export function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream & AsyncIterable<Buffer>> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream as NodeJS.ReadableStream & AsyncIterable<Buffer>)));
  });
}

/**
 * Unpacks every part, counting and dropping the bytes, so an archive is known to unpack to what it
 * declares before a library that holds it all in memory opens it. Answers the part names.
 */
export async function checkUnpackedSizes(bytes: Buffer, rules: TZipRules): Promise<string[]> {
  const { zip, entries } = await openCheckedZip(bytes, rules);
  let unpacked = 0;
  try {
    for (const entry of entries.values()) {
      const stream = await openEntry(zip, entry).catch(() => {
        throw refuse(rules.messages.corrupt);
      });
      try {
        for await (const chunk of stream) {
          unpacked += chunk.length;
          if (unpacked > rules.maxUnpackedBytes) throw refuse(rules.messages.tooLarge(unpacked));
        }
      } catch (error) {
        (stream as unknown as { destroy?: () => void }).destroy?.();
        if (error instanceof AppError) throw error;
        // yauzl stops a part that unpacks past its declared size: the declaration was a lie.
        if (/too many bytes/i.test((error as Error).message)) throw refuse(rules.messages.tooLarge(unpacked));
        throw refuse(rules.messages.corrupt);
      }
    }
  } finally {
    zip.close();
  }
  return [...entries.keys()];
}
