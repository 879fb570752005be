import { PDF, PdfArray, PdfDict, PdfNull, PdfNumber, PdfRef, type PdfObject, type PDFPage } from '@libpdf/core';

/**
 * One PDF: every page of `document`, then every page of `extra` (the certificate of completion).
 * Written as an incremental update, so the document's own bytes stay first and untouched; its
 * pages are not rewritten, only the page tree gains the copied pages.
 *
 * When both are tagged (docs/accessible-pdf.md), the extra pages' structure joins the document's:
 * their elements go, in order, at the end of the document's `Document` element, and their pages'
 * marked content gets keys of its own in the document's ParentTree. Otherwise the copied pages
 * stay out of any tree (the copy leaves their `/StructParents` behind).
 */
export async function appendPdf(document: Uint8Array, extra: Uint8Array): Promise<Uint8Array> {
  const [target, source] = await Promise.all([PDF.load(document), PDF.load(extra)]);
  const sourcePages = source.getPages();
  const copied = await target.copyPagesFrom(source, [...sourcePages.keys()]);
  mergeStructure(target, source, sourcePages, copied);
  return target.save({ incremental: true });
}

/**
 * The structure tree's parts this merge can extend: a root with one Document element and a flat
 * ParentTree, as our renderer writes it (the documents sealed here are all its own).
 */
function structureOf(pdf: PDF): { root: PdfDict; document: PdfDict; documentRef: PdfRef; nums: PdfArray; nextKey: number } | null {
  const resolve = (ref: PdfRef) => pdf.getObject(ref);
  const root = pdf.getCatalog().getDict('StructTreeRoot', resolve);
  const documentRef = root?.get('K');
  if (!root || !(documentRef instanceof PdfRef)) return null;
  const document = pdf.getObject(documentRef);
  const nums = root.getDict('ParentTree', resolve)?.getArray('Nums', resolve);
  if (!(document instanceof PdfDict) || document.getName('S')?.value !== 'Document' || !nums) return null;
  // The next key is optional: past the largest key in use otherwise.
  let nextKey = root.getNumber('ParentTreeNextKey', resolve)?.value ?? 0;
  for (let i = 0; i < nums.length; i += 2) {
    const key = nums.at(i);
    if (key instanceof PdfNumber) nextKey = Math.max(nextKey, key.value + 1);
  }
  return { root, document, documentRef, nums, nextKey };
}

function mergeStructure(target: PDF, source: PDF, sourcePages: PDFPage[], copied: PDFPage[]): void {
  const into = structureOf(target);
  const from = structureOf(source);
  if (!into || !from) return;

  const pageRef = new Map(sourcePages.map((page, i) => [page.ref.objectNumber, copied[i]!.ref]));
  const elementRef = new Map<number, PdfRef>();
  /** Copies the element at `ref`, below `parent`, with its pages and kids mapped into the target. */
  const copyElement = (ref: PdfRef, parent: PdfRef): PdfRef | null => {
    const element = source.getObject(ref);
    if (!(element instanceof PdfDict)) return null;
    const copy = new PdfDict();
    const copyRef = target.register(copy);
    elementRef.set(ref.objectNumber, copyRef);
    for (const [key, value] of element) {
      if (key.value === 'P') copy.set(key, parent);
      else if (key.value === 'Pg') copy.set(key, mapPage(value));
      else if (key.value === 'K') copy.set(key, copyKids(value, copyRef));
      else copy.set(key, value);
    }
    return copyRef;
  };
  const mapPage = (value: PdfObject): PdfObject => (value instanceof PdfRef ? (pageRef.get(value.objectNumber) ?? value) : value);
  const copyKid = (kid: PdfObject, parent: PdfRef): PdfObject | null => {
    if (kid instanceof PdfRef) return copyElement(kid, parent);
    if (kid instanceof PdfDict) {
      // A marked-content reference on another page; an object reference (an annotation) is not
      // carried over, as the certificate has none.
      if (kid.getName('Type')?.value === 'OBJR') return null;
      const copy = kid.clone();
      const page = kid.get('Pg');
      if (page) copy.set('Pg', mapPage(page));
      return copy;
    }
    return kid;
  };
  const copyKids = (value: PdfObject, parent: PdfRef): PdfObject => {
    if (!(value instanceof PdfArray)) return copyKid(value, parent) ?? new PdfArray();
    return new PdfArray(value.toArray().flatMap((kid) => copyKid(kid, parent) ?? []));
  };

  // The extra document's top-level elements follow the document's own, under its Document.
  const kids = from.document.get('K');
  const added = kids instanceof PdfArray ? kids.toArray() : kids ? [kids] : [];
  const existing = into.document.get('K');
  const documentKids = existing instanceof PdfArray ? existing : new PdfArray(existing ? [existing] : []);
  // In the document's language unless the extra pages say otherwise (a certificate in English
  // after a German contract): then each of their elements says so.
  const language = source.getCatalog().getString('Lang');
  const otherLanguage = language && language.asString() !== target.getCatalog().getString('Lang')?.asString() ? language : null;
  for (const kid of added) {
    const copy = copyKid(kid, into.documentRef);
    if (!copy) continue;
    if (otherLanguage && copy instanceof PdfRef) (target.getObject(copy) as PdfDict).set('Lang', otherLanguage);
    documentKids.push(copy);
  }
  into.document.set('K', documentKids);

  // Each copied page's marked content, by MCID, points to the copied elements.
  const sourceParents = new Map<number, PdfObject>();
  const sourceNums = from.nums.toArray();
  for (let i = 0; i + 1 < sourceNums.length; i += 2) {
    const key = sourceNums[i];
    if (key instanceof PdfNumber) sourceParents.set(key.value, sourceNums[i + 1]!);
  }
  let nextKey = into.nextKey;
  // The copies have no `/StructParents` (the copy leaves it behind, as its tree is the source's).
  copied.forEach((page, i) => {
    const key = sourcePages[i]!.dict.getNumber('StructParents')?.value;
    const parents = key === undefined ? undefined : sourceParents.get(key);
    const list = parents instanceof PdfRef ? source.getObject(parents) : parents;
    if (!(list instanceof PdfArray)) return;
    // An MCID's place in the array is its number: one whose element was not copied keeps its place, as null.
    const mapped = list.toArray().map((ref) => (ref instanceof PdfRef ? (elementRef.get(ref.objectNumber) ?? PdfNull.instance) : PdfNull.instance));
    into.nums.push(PdfNumber.of(nextKey), new PdfArray(mapped));
    page.dict.set('StructParents', PdfNumber.of(nextKey));
    nextKey++;
  });
  into.root.set('ParentTreeNextKey', PdfNumber.of(nextKey));
}
