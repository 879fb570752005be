import { SaxesParser } from 'saxes';

/*
 * Reading an XMP packet for the PDF/A check: a namespace-aware XML parser (saxes, not our
 * writer's code) builds a small element tree, from which the properties are read by namespace
 * and name, whatever prefixes the packet chose.
 */

export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xml: 'http://www.w3.org/XML/1998/namespace',
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  pdfuaid: 'http://www.aiim.org/pdfua/ns/id/',
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
} as const;

interface TXmlElement {
  uri: string;
  local: string;
  attributes: { uri: string; local: string; value: string }[];
  children: TXmlElement[];
  text: string;
}

/** Throws when the packet is not well-formed XML with well-formed namespaces. */
function parseXml(xml: string): TXmlElement {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const root: TXmlElement = { uri: '', local: '', attributes: [], children: [], text: '' };
  const open: TXmlElement[] = [root];
  parser.on('opentag', (tag) => {
    const attributes = Object.values(tag.attributes).map(({ uri, local, value }) => ({ uri, local, value }));
    const element: TXmlElement = { uri: tag.uri, local: tag.local, attributes, children: [], text: '' };
    open.at(-1)!.children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => void open.pop());
  parser.on('text', (text) => void (open.at(-1)!.text += text));
  parser.on('cdata', (text) => void (open.at(-1)!.text += text));
  parser.write(xml).close();
  return root;
}

function* descendants(element: TXmlElement): Generator<TXmlElement> {
  for (const child of element.children) {
    yield child;
    yield* descendants(child);
  }
}

const is = (element: TXmlElement, uri: string, local: string) => element.uri === uri && element.local === local;
const childText = (element: TXmlElement, uri: string, local: string) => element.children.find((c) => is(c, uri, local))?.text.trim();

/** A property's value: simple text, or the items of an Alt, Seq or Bag (an Alt's with their languages). */
export interface TXmpValue {
  text?: string;
  items?: { lang?: string; value: string }[];
}

export interface TXmpPacket {
  /** By `${namespace} ${name}`. */
  properties: Map<string, TXmpValue>;
  /** Whether an extension schema declares pdfuaid:part as an internal Integer, as PDF/A asks of a schema it does not predefine. */
  declaresPdfUa: boolean;
  /** Attributes of the xpacket header that PDF/A forbids (`bytes`, `encoding`). */
  forbiddenHeaderAttributes: string[];
}

/** Attributes of an rdf:Description that are not properties: RDF's own, xml:lang, namespace declarations, unqualified ones. */
const NOT_PROPERTIES = new Set<string>([NS.rdf, NS.xml, 'http://www.w3.org/2000/xmlns/', '']);

export function readXmp(xml: string): TXmpPacket {
  const root = parseXml(xml);
  const properties = new Map<string, TXmpValue>();
  for (const description of descendants(root)) {
    if (!is(description, NS.rdf, 'Description')) continue;
    // A simple property may be written as an attribute of its rdf:Description.
    for (const a of description.attributes) if (!NOT_PROPERTIES.has(a.uri)) properties.set(`${a.uri} ${a.local}`, { text: a.value });
    for (const property of description.children) {
      const array = property.children.find((c) => c.uri === NS.rdf && ['Alt', 'Seq', 'Bag'].includes(c.local));
      const key = `${property.uri} ${property.local}`;
      if (!array) properties.set(key, { text: property.text });
      else {
        const items = array.children.filter((li) => is(li, NS.rdf, 'li'));
        const lang = (li: TXmlElement) => li.attributes.find((a) => a.uri === NS.xml && a.local === 'lang')?.value;
        properties.set(key, { items: items.map((li) => ({ lang: lang(li), value: li.text })) });
      }
    }
  }
  const declaresPdfUa = [...descendants(root)].some(
    (schema) =>
      childText(schema, NS.pdfaSchema, 'namespaceURI') === NS.pdfuaid &&
      childText(schema, NS.pdfaSchema, 'prefix') === 'pdfuaid' &&
      [...descendants(schema)].some(
        (p) =>
          childText(p, NS.pdfaProperty, 'name') === 'part' &&
          childText(p, NS.pdfaProperty, 'valueType') === 'Integer' &&
          childText(p, NS.pdfaProperty, 'category') === 'internal',
      ),
  );
  const forbiddenHeaderAttributes: string[] = [];
  for (const [header] of xml.matchAll(/<\?xpacket\b[^?]*\?>/g)) {
    for (const [, name] of header.matchAll(/\b(bytes|encoding)\s*=/g)) forbiddenHeaderAttributes.push(name!);
  }
  return { properties, declaresPdfUa, forbiddenHeaderAttributes };
}

/** A simple property's text, or an Alt's x-default item (else its first), or a Seq's only item. */
export function xmpValue(packet: TXmpPacket, uri: string, name: string): string | undefined {
  const value = packet.properties.get(`${uri} ${name}`);
  if (!value) return undefined;
  if (value.text !== undefined) return value.text;
  const items = value.items ?? [];
  return (items.find((i) => i.lang === 'x-default') ?? items[0])?.value;
}

/** An instant and the offset it was written with (null when the date says none). */
interface TDateParts {
  at: number;
  offsetMinutes: number | null;
}

function parts(y: string, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign?: string, oh = '00', om = '00'): TDateParts {
  const offsetMinutes = sign === undefined ? null : sign === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return { at: local - (offsetMinutes ?? 0) * 60_000, offsetMinutes };
}

/** `D:YYYYMMDDHHmmSSOHH'mm'` with every part after the year optional. */
export function readPdfDate(s: string): TDateParts | null {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Z+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?$/.exec(s);
  return m ? parts(m[1]!, m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9]) : null;
}

/** XMP's ISO 8601 subset: `YYYY-MM-DDThh:mm:ss(.s)?(Z|±hh:mm)` with the later parts optional. */
export function readXmpDate(s: string): TDateParts | null {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:(Z)|([+-])(\d{2}):(\d{2}))?)?)?)?$/.exec(s.trim());
  return m ? parts(m[1]!, m[2], m[3], m[4], m[5], m[6], m[7] ?? m[8], m[9], m[10]) : null;
}
