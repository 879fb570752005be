/*
 * The XMP metadata packet of a PDF/A-2a and PDF/UA-1 document: the parts it claims, and the
 * title, tools and dates of the Info dictionary, which PDF/A requires to agree with it. There is
 * no dc:creator: that is the document's author (Info /Author), which the renderer is not told;
 * the application that made it is xmp:CreatorTool.
 */

export interface TXmpFields {
  /** Already passed through `metadataText`, so the Info dictionary can carry the same string. */
  title: string;
  /** The application that made the document (Info /Creator). */
  creatorTool: string;
  /** The PDF writer (Info /Producer). */
  producer: string;
  /** Written as both xmp:CreateDate and xmp:ModifyDate, as the Info dictionary has both dates equal. */
  created: Date;
}

/**
 * A title as both the Info dictionary and XMP can hold it alike: XML 1.0 cannot carry control
 * characters, U+FFFE, U+FFFF or a lone surrogate, and a line break in either place is read back
 * changed (a PDF literal string and an XML parser both normalise CR), so each becomes a space.
 */
export function metadataText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ' ');
}

function xmlText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * The instant `pdfDate` writes into the Info dictionary, in XMP's form: UTC, to the second, and
 * the epoch for an invalid date, as there.
 */
function xmpDate(d: Date): string {
  const t = Number.isNaN(d.getTime()) ? new Date(0) : d;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getUTCFullYear()}-${p(t.getUTCMonth() + 1)}-${p(t.getUTCDate())}T${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())}Z`;
}

/*
 * pdfuaid is not one of the schemas PDF/A predefines, so the packet declares it in PDF/A's
 * extension schema container; without that a PDF/A validator rejects the pdfuaid:part property.
 */
const PDFUA_EXTENSION_SCHEMA = `  <rdf:Description rdf:about=""
    xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
    xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
    xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
   <pdfaExtension:schemas>
    <rdf:Bag>
     <rdf:li rdf:parseType="Resource">
      <pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
      <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
      <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
      <pdfaSchema:property>
       <rdf:Seq>
        <rdf:li rdf:parseType="Resource">
         <pdfaProperty:name>part</pdfaProperty:name>
         <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
         <pdfaProperty:category>internal</pdfaProperty:category>
         <pdfaProperty:description>Indicates which part of ISO 14289 the document conforms to</pdfaProperty:description>
        </rdf:li>
       </rdf:Seq>
      </pdfaSchema:property>
     </rdf:li>
    </rdf:Bag>
   </pdfaExtension:schemas>
  </rdf:Description>
`;

/**
 * The packet as UTF-8 bytes, for an uncompressed `/Type /Metadata /Subtype /XML` stream. The
 * header has neither `bytes` nor `encoding` (PDF/A forbids both); `begin` holds the byte order
 * mark, as XMP asks. Without padding: nothing edits these files in place.
 */
export function xmpPacket(fields: TXmpFields): Uint8Array {
  const date = xmpDate(fields.created);
  const xml =
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n' +
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n' +
    '  <rdf:Description rdf:about=""\n' +
    '    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"\n' +
    '    xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"\n' +
    '    xmlns:dc="http://purl.org/dc/elements/1.1/"\n' +
    '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n' +
    '    xmlns:pdf="http://ns.adobe.com/pdf/1.3/">\n' +
    '   <pdfaid:part>2</pdfaid:part>\n' +
    '   <pdfaid:conformance>A</pdfaid:conformance>\n' +
    '   <pdfuaid:part>1</pdfuaid:part>\n' +
    '   <dc:format>application/pdf</dc:format>\n' +
    `   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(fields.title)}</rdf:li></rdf:Alt></dc:title>\n` +
    `   <xmp:CreatorTool>${xmlText(fields.creatorTool)}</xmp:CreatorTool>\n` +
    `   <xmp:CreateDate>${date}</xmp:CreateDate>\n` +
    `   <xmp:ModifyDate>${date}</xmp:ModifyDate>\n` +
    `   <pdf:Producer>${xmlText(fields.producer)}</pdf:Producer>\n` +
    '  </rdf:Description>\n' +
    PDFUA_EXTENSION_SCHEMA +
    ' </rdf:RDF>\n' +
    '</x:xmpmeta>\n' +
    '<?xpacket end="w"?>';
  return Buffer.from(xml, 'utf8');
}
