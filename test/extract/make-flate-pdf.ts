import { deflateSync } from 'node:zlib';
import { defined } from '../helpers/defined.ts';

/**
 * Builds a PDF whose pages draw Flate-compressed content streams (Helvetica, correct xref
 * offsets), for the stream bounds of src/extract/pdf-streams.ts. `content` is each page's
 * uncompressed content stream; `extra` streams are added as unused objects with the given
 * dictionary entries (an image, say), compressed the same way.
 */

/** Content that shows `lines` one under the other. */
export const showLines = (lines: string[]): string =>
  `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `(${l.replace(/([\\()])/g, '\\$1')}) Tj T*`).join(' ')} ET`;

export function makeFlatePdf(
  content: (string | Buffer)[],
  extra: { dict: string; data: string | Buffer }[] = [],
): Uint8Array {
  const pageIds = content.map((_, i) => 4 + i * 2);
  const fontId = 4 + content.length * 2;
  const objects: (string | Buffer)[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${content.length} >>`;
  objects[3] = '<< >>';
  const stream = (dict: string, data: string | Buffer): Buffer => {
    const packed = deflateSync(data, { level: 9 });
    return Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`),
      packed,
      Buffer.from('\nendstream'),
    ]);
  };
  content.forEach((data, i) => {
    const pageId = defined(pageIds[i], `the id of page ${i}`);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = stream('', data);
  });
  objects[fontId] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  for (const e of extra) objects.push(stream(e.dict, e.data));
  const header = Buffer.from('%PDF-1.4\n');
  const parts: Buffer[] = [header];
  const offsets: number[] = [];
  let at = header.length;
  for (let id = 1; id < objects.length; id += 1) {
    const chunk = Buffer.concat([
      Buffer.from(`${id} 0 obj\n`),
      Buffer.from(defined(objects[id], `object ${id}`)),
      Buffer.from('\nendobj\n'),
    ]);
    offsets[id] = at;
    parts.push(chunk);
    at += chunk.length;
  }
  const xref = offsets
    .slice(1)
    .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
    .join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}
