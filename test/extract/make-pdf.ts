import { defined } from '../helpers/defined.ts';

/**
 * Builds a small valid PDF (Helvetica text, one content stream per page, correct xref
 * offsets) so PDF extraction is tested on bytes made here rather than a binary fixture.
 */
const escapePdf = (s: string): string => s.replace(/([\\()])/g, '\\$1');

export function makePdf(pages: string[][], title: string): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  const fontId = 4 + pages.length * 2;
  const infoId = fontId + 1;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< >>';
  pages.forEach((lines, i) => {
    const stream = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `(${escapePdf(l)}) Tj T*`).join(' ')} ET`;
    const pageId = defined(pageIds[i], `the id of page ${i}`);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  objects[fontId] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  objects[infoId] = `<< /Title (${escapePdf(title)}) >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id += 1) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
