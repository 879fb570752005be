/*
 * The logical structure of a tagged document (PDF/UA, docs/accessible-pdf.md): a tree of
 * structure elements built while the blocks are laid out, whose leaves are the marked-content
 * sequences the page canvas writes. The writer turns it into the StructTreeRoot and ParentTree.
 */

export type TStructType =
  | 'Document'
  | 'Div'
  | 'H1'
  | 'H2'
  | 'H3'
  | 'H4'
  | 'H5'
  | 'H6'
  | 'P'
  | 'L'
  | 'LI'
  | 'Lbl'
  | 'LBody'
  | 'Table'
  | 'THead'
  | 'TBody'
  | 'TR'
  | 'TH'
  | 'TD'
  | 'Figure'
  | 'Link';

/** A marked-content sequence on a page: the `MCID` it carries there. */
export interface TMarkedContent {
  page: number;
  mcid: number;
}

/** An annotation (a link's clickable area) that belongs to an element: its index among the document's links. */
export interface TAnnotationRef {
  annotation: number;
}

export type TStructKid = TStructNode | TMarkedContent | TAnnotationRef;

export interface TStructNode {
  type: TStructType;
  kids: TStructKid[];
  /** A figure's alternative text. */
  alt?: string;
  /** A header cell's scope. */
  scope?: 'Column' | 'Row';
  /** Its language, when not the document's (BCP 47); what it holds inherits it. */
  lang?: string;
}

export const isMarkedContent = (kid: TStructKid): kid is TMarkedContent => 'mcid' in kid;
export const isStructNode = (kid: TStructKid): kid is TStructNode => 'type' in kid;

export class StructureTree {
  readonly root: TStructNode = { type: 'Document', kids: [] };
  /** Per page, the structure element of each MCID, in MCID order (the ParentTree's arrays). */
  readonly parents: TStructNode[][] = [];

  /** A new element, the last child of `parent`. */
  add(parent: TStructNode, type: TStructType, extra: Pick<TStructNode, 'alt' | 'scope' | 'lang'> = {}): TStructNode {
    const node: TStructNode = { type, kids: [], ...extra };
    parent.kids.push(node);
    return node;
  }

  /** The next MCID on `page`, recorded as content of `node`. */
  mark(node: TStructNode, page: number): number {
    while (this.parents.length <= page) this.parents.push([]);
    const onPage = this.parents[page]!;
    const mcid = onPage.length;
    onPage.push(node);
    node.kids.push({ page, mcid });
    return mcid;
  }
}
