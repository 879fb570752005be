import { pdfString, type PdfWriter } from './pdf-writer.ts';
import { isMarkedContent, isStructNode, type StructureTree, type TStructKid, type TStructNode } from './structure.ts';

/**
 * Writes a document's structure tree: an object per structure element, the StructTreeRoot, and
 * the ParentTree that leads from each page's marked content back to its element. Returns the
 * StructTreeRoot's object id. Pages carry `/StructParents` equal to their index; the annotation
 * `annotations[k]` (its object id and page) carries `/StructParent` equal to the page count plus k.
 */
const isEmptyParagraph = (kid: TStructKid) => isStructNode(kid) && kid.type === 'P' && kid.kids.length === 0;

export function writeStructure(
  w: PdfWriter,
  structure: StructureTree,
  pageIds: readonly number[],
  annotations: readonly { id: number; page: number }[] = [],
): number {
  const rootId = w.alloc();
  const parentTreeId = w.alloc();
  // Elements in the order they are written (depth first), each with its object id and its parent's.
  const order: TStructNode[] = [];
  const ids = new Map<TStructNode, number>();
  const parentIds: number[] = [];
  const visit = (node: TStructNode, parentId: number) => {
    // An empty cell of a layout table would be an empty paragraph, read as a blank.
    if (node.kids.some(isEmptyParagraph)) node.kids = node.kids.filter((kid) => !isEmptyParagraph(kid));
    const id = w.alloc();
    ids.set(node, id);
    order.push(node);
    parentIds.push(parentId);
    for (const kid of node.kids) if (isStructNode(kid)) visit(kid, id);
  };
  visit(structure.root, rootId);

  const annotationParents: number[] = [];
  for (let n = 0; n < order.length; n++) {
    const node = order[n]!;
    const id = ids.get(node)!;
    // The element's page is that of its first marked content; content on it is named by MCID alone.
    let page: number | undefined;
    for (const kid of node.kids) {
      if (isMarkedContent(kid)) {
        page = kid.page;
        break;
      }
    }
    let kids = '';
    for (const kid of node.kids) {
      if (kids !== '') kids += ' ';
      if (isStructNode(kid)) kids += `${ids.get(kid)} 0 R`;
      else if (!isMarkedContent(kid)) {
        const annotation = annotations[kid.annotation]!;
        annotationParents[kid.annotation] = id;
        kids += `<< /Type /OBJR /Obj ${annotation.id} 0 R /Pg ${pageIds[annotation.page]} 0 R >>`;
      } else kids += kid.page === page ? String(kid.mcid) : `<< /Type /MCR /Pg ${pageIds[kid.page]} 0 R /MCID ${kid.mcid} >>`;
    }
    // There is one of these per table cell, so it is written without the optional `/Type
    // /StructElem` and without the spaces a name or a dictionary needs none of.
    let body = `<</S/${node.type}/P ${parentIds[n]} 0 R`;
    if (page !== undefined) body += `/Pg ${pageIds[page]} 0 R`;
    if (node.lang !== undefined) body += `/Lang${pdfString(node.lang)}`;
    if (node.alt !== undefined) body += `/Alt${pdfString(node.alt)}`;
    if (node.scope) body += `/A<</O/Table/Scope/${node.scope}>>`;
    body += node.kids.length === 1 ? `/K ${kids}>>` : `/K[${kids}]>>`;
    w.packedObject(id, body);
  }

  const nums = pageIds.map((_, page) => `${page} [${(structure.parents[page] ?? []).map((node) => `${ids.get(node)} 0 R`).join(' ')}]`);
  annotations.forEach((_, k) => nums.push(`${pageIds.length + k} ${annotationParents[k]} 0 R`));
  w.packedObject(parentTreeId, `<< /Nums [${nums.join(' ')}] >>`);
  const nextKey = pageIds.length + annotations.length;
  w.packedObject(rootId, `<< /Type /StructTreeRoot /K ${ids.get(structure.root)} 0 R /ParentTree ${parentTreeId} 0 R /ParentTreeNextKey ${nextKey} >>`);
  return rootId;
}
