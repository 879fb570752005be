import type yauzl from 'yauzl';
import { openCheckedZip, type TZipRules } from '../../../files/zip.ts';
import { builtinDateKind, dateKindOfFormat, isoDateText, plainNumber, serialToText, type TDateKind } from './cell-values.ts';
import { mismatch } from './file-type.ts';
import { SheetBuilder, type TCell } from './sheet-builder.ts';
import type { TOtherSheets, TReadStats } from './sheet-types.ts';
import { bad, BULK_MAX_OTHER_SHEETS, BULK_MAX_UNZIPPED_BYTES, BULK_MAX_ZIP_ENTRIES, fmt, MAX_DEFLATE_RATIO, MESSAGES } from './spreadsheet-limits.ts';
import { columnIndexOf, parsePart, readPartText, resolveTarget, RichTextCollector, unescapeOoxml } from './xlsx-parts.ts';

// .xlsx: ZIP checks, then a streaming SAX read of the first worksheet

const SHEET_ZIP_RULES: TZipRules = {
  maxEntries: BULK_MAX_ZIP_ENTRIES,
  maxUnpackedBytes: BULK_MAX_UNZIPPED_BYTES,
  maxRatio: MAX_DEFLATE_RATIO,
  messages: {
    corrupt: MESSAGES.corrupt,
    tooManyParts: MESSAGES.tooManyParts,
    passwordProtected: MESSAGES.passwordProtected,
    tooLarge: zipBombMessage,
  },
};

function zipBombMessage(declared: number): string {
  return `The workbook unpacks to ${fmt(Math.round(declared / (1024 * 1024)))} MB, more than the ${fmt(BULK_MAX_UNZIPPED_BYTES / (1024 * 1024))} MB a spreadsheet upload may use (it may be a "zip bomb"). Remove images and unused sheets, or split the rows into smaller files.`;
}

export async function readXlsx(bytes: Buffer, builder: SheetBuilder, stats: TReadStats, others?: TOtherSheets): Promise<void> {
  const { zip, entries } = await openCheckedZip(bytes, SHEET_ZIP_RULES);
  try {
    const workbookEntry = entries.get('xl/workbook.xml');
    if (!workbookEntry) throw mismatch('xlsx', 'zip');

    // Workbook: the first sheet in workbook order, and the date system.
    let firstSheetRel: string | null = null;
    let date1904 = false;
    const laterSheets: { name: string; rel: string }[] = [];
    await readPartText(zip, workbookEntry, {
      open: (name, attributes) => {
        if (name === 'sheet' && firstSheetRel === null) {
          const key = Object.keys(attributes).find((k) => k === 'id' || k.endsWith(':id'));
          firstSheetRel = key ? (attributes[key] ?? null) : null;
        } else if (name === 'sheet') {
          const key = Object.keys(attributes).find((k) => k === 'id' || k.endsWith(':id'));
          const rel = key ? attributes[key] : undefined;
          // Hidden sheets hold helpers (the template's option lists), never data.
          if (rel && attributes.state !== 'hidden' && attributes.state !== 'veryHidden') laterSheets.push({ name: attributes.name ?? '', rel });
        } else if (name === 'workbookPr') {
          const v = attributes.date1904;
          date1904 = v === '1' || v === 'true';
        }
      },
    });

    const targets = new Map<string, string>();
    await readPartText(zip, entries.get('xl/_rels/workbook.xml.rels'), {
      open: (name, attributes) => {
        if (name === 'Relationship' && attributes.Id && attributes.Target) {
          targets.set(attributes.Id, resolveTarget(attributes.Target));
        }
      },
    });
    const target = firstSheetRel ? targets.get(firstSheetRel) : undefined;
    const sheetEntry = entries.get(target ?? 'xl/worksheets/sheet1.xml');
    if (!sheetEntry) {
      throw bad(
        target?.includes('chartsheet')
          ? 'The first sheet of the workbook is a chart. Move the sheet with the data to the front and upload the file again.'
          : MESSAGES.corrupt,
      );
    }

    // Styles: which cell formats show dates.
    const customFormats = new Map<number, string>();
    const xfFormatIds: number[] = [];
    let inCellXfs = false;
    await readPartText(zip, entries.get('xl/styles.xml'), {
      open: (name, attributes) => {
        if (name === 'numFmt') customFormats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) xfFormatIds.push(Number(attributes.numFmtId ?? 0));
      },
      close: (name) => {
        if (name === 'cellXfs') inCellXfs = false;
      },
    });
    const dateKindByStyle = xfFormatIds.map((id) => {
      const custom = customFormats.get(id);
      return custom !== undefined ? dateKindOfFormat(custom) : builtinDateKind(id);
    });

    // Shared strings: bounded by the unpacked-size check above.
    const shared: string[] = [];
    const sharedText = new RichTextCollector();
    await readPartText(zip, entries.get('xl/sharedstrings.xml'), {
      open: (name) => sharedText.open(name),
      close: (name) => {
        if (name === 'si') shared.push(sharedText.take());
        else sharedText.close(name);
      },
      text: (text) => sharedText.text(text),
    });

    await readWorksheet(zip, sheetEntry, builder, stats, { shared, dateKindByStyle, date1904 });
    if (others) {
      for (const later of laterSheets.slice(0, BULK_MAX_OTHER_SHEETS)) {
        const entry = entries.get(targets.get(later.rel) ?? '');
        if (!entry || !(targets.get(later.rel) ?? '').includes('worksheets/')) continue;
        const other = new SheetBuilder(others.budget.rows, others.budget);
        await readWorksheet(zip, entry, other, stats, { shared, dateKindByStyle, date1904 });
        others.sheets.push({ name: later.name, builder: other });
      }
    }
  } finally {
    zip.close();
  }
}

interface TWorkbookContext {
  shared: readonly string[];
  dateKindByStyle: readonly (TDateKind | null)[];
  date1904: boolean;
}

async function readWorksheet(zip: yauzl.ZipFile, entry: yauzl.Entry, builder: SheetBuilder, stats: TReadStats, book: TWorkbookContext): Promise<void> {
  let inSheetData = false;
  let rowNumber = 0;
  let rowHidden = false;
  let cells: TCell[] = [];
  let nextColumn = 0;
  // Current cell.
  let cellColumn = -1;
  let cellType = 'n';
  let cellStyle = 0;
  let value: string[] | null = null;
  let inValue = false;
  let inInline = false;
  const inline = new RichTextCollector();

  const cellText = (): string => {
    const raw = value === null ? null : value.join('');
    if (cellType === 'inlineStr') return inline.take();
    if (raw === null) return ''; // also a formula with no cached result: never evaluated
    switch (cellType) {
      case 's':
        return book.shared[Number(raw)] ?? '';
      case 'str':
        return unescapeOoxml(raw);
      case 'b':
        return raw.trim() === '1' || raw.trim().toLowerCase() === 'true' ? 'TRUE' : 'FALSE';
      case 'e':
        return raw;
      case 'd':
        return isoDateText(raw);
      default: {
        const trimmed = raw.trim();
        if (trimmed === '') return '';
        const n = Number(trimmed);
        if (!Number.isFinite(n)) return trimmed;
        const kind = book.dateKindByStyle[cellStyle] ?? null;
        return kind ? serialToText(n, kind, book.date1904) : plainNumber(n);
      }
    }
  };

  await parsePart(
    zip,
    entry,
    {
      open: (name, attributes) => {
        if (name === 'sheetData') {
          inSheetData = true;
        } else if (!inSheetData) {
          return;
        } else if (name === 'row') {
          const r = Number(attributes.r);
          rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
          rowHidden = attributes.hidden === '1' || attributes.hidden === 'true';
          cells = [];
          nextColumn = 0;
        } else if (name === 'c') {
          cellColumn = columnIndexOf(attributes.r) ?? nextColumn;
          nextColumn = cellColumn + 1;
          cellType = attributes.t ?? 'n';
          cellStyle = Number(attributes.s ?? 0) || 0;
          value = null;
        } else if (name === 'v') {
          inValue = true;
          value = [];
        } else if (name === 'is') {
          inInline = true;
        } else if (inInline) {
          inline.open(name);
        }
      },
      text: (text) => {
        if (inValue) value?.push(text);
        else if (inInline) inline.text(text);
      },
      close: (name) => {
        if (!inSheetData) return;
        if (name === 'v') {
          inValue = false;
        } else if (name === 'is') {
          inInline = false;
        } else if (inInline) {
          inline.close(name);
        } else if (name === 'c') {
          const text = cellText();
          if (cellColumn < builder.width && text !== '') cells[cellColumn] = text;
          value = null;
        } else if (name === 'row') {
          stats.rowsRead += 1;
          builder.push(rowNumber, cells, rowHidden);
        } else if (name === 'sheetData') {
          inSheetData = false;
        }
      },
    },
    (n) => {
      stats.bytesInflated += n;
    },
  );
}
