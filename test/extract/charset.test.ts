import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody, declaredCharset, isUtf8, normalizeCharset, sniffCharset } from '../../src/extract/charset.ts';

const W1252_TEXT = 'Café “quoted” — €5 … naïve';
const JAPANESE =
  '今日の東京は晴れのち曇り、最高気温は二十三度の予想です。午後からは南風がやや強まり、夕方には雲が広がるでしょう。明日は朝から雨が降りやすく、傘を持ってお出かけください。';
const CHINESE =
  '北京是中国的首都，拥有三千多年的历史。游客可以参观故宫、天坛和长城，感受古老文化的魅力。春秋两季是最适合旅游的季节，气候宜人。建议提前预订门票，避开节假日的人流高峰。';

const enc = (text: string, charset: string): Uint8Array => new Uint8Array(iconv.encode(text, charset));

describe('charset decoding', () => {
  it('decodes windows-1252 bytes 0x80-0x9F as curly quotes, dashes and the euro sign', () => {
    const bytes = enc(W1252_TEXT, 'windows-1252');
    expect(bytes).toContain(0x93);
    expect(decodeBody(bytes, 'windows-1252', false)).toBe(W1252_TEXT);
  });

  it('reads Latin-1 and ASCII labels as windows-1252, as browsers do', () => {
    const bytes = enc(W1252_TEXT, 'windows-1252');
    expect(decodeBody(bytes, 'iso-8859-1', false)).toBe(W1252_TEXT);
    expect(decodeBody(bytes, 'us-ascii', false)).toBe(W1252_TEXT);
    expect(normalizeCharset('Latin1')).toBe('windows-1252');
  });

  it('decodes Shift_JIS and GBK (including the gb2312 label)', () => {
    expect(decodeBody(enc(JAPANESE, 'shift_jis'), 'Shift_JIS', false)).toBe(JAPANESE);
    expect(decodeBody(enc(CHINESE, 'gbk'), 'gb2312', false)).toBe(CHINESE);
  });

  it('uses <meta charset> and http-equiv declarations in markup when the header has none', () => {
    const html = `<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>${JAPANESE}</body></html>`;
    const bytes = enc(html, 'shift_jis');
    expect(declaredCharset(bytes)).toBe('cp932');
    expect(decodeBody(bytes, null, true)).toBe(html);
    const meta = `<meta charset="windows-1252"><p>${W1252_TEXT}</p>`;
    expect(decodeBody(enc(meta, 'windows-1252'), null, true)).toBe(meta);
  });

  it('prefers the header over the document declaration, and a BOM over both', () => {
    const html = `<meta charset="shift_jis"><p>${W1252_TEXT}</p>`;
    expect(decodeBody(enc(html, 'windows-1252'), 'windows-1252', true)).toBe(html);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('<p>é</p>')]);
    expect(decodeBody(bom, 'windows-1252', true)).toBe('<p>é</p>');
  });

  it('reads the XML declaration', () => {
    const xml = `<?xml version="1.0" encoding="GBK"?><rss><title>${CHINESE}</title></rss>`;
    expect(decodeBody(enc(xml, 'gbk'), null, true)).toBe(xml);
  });

  it('sniffs undeclared bytes: UTF-8 when valid, otherwise a detected legacy charset', () => {
    expect(sniffCharset(new TextEncoder().encode(JAPANESE))).toBe('utf-8');
    expect(decodeBody(enc(JAPANESE, 'shift_jis'), null, true)).toBe(JAPANESE);
    expect(decodeBody(enc(CHINESE, 'gbk'), null, false)).toBe(CHINESE);
  });

  it('treats UTF-8 cut inside a character (byte cap) as UTF-8', () => {
    const bytes = new TextEncoder().encode('ok é');
    expect(isUtf8(bytes.subarray(0, bytes.length - 1))).toBe(true);
    expect(isUtf8(new Uint8Array([0x61, 0xff, 0x62]))).toBe(false);
  });

  it('ignores unknown labels', () => {
    expect(normalizeCharset('x-no-such-charset')).toBeNull();
    expect(decodeBody(new TextEncoder().encode('plain é'), 'x-no-such-charset', false)).toBe('plain é');
  });

  it('reads a quoted or spaced meta charset, and a run of spaces after charset= quickly', () => {
    const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);
    expect(declaredCharset(ascii(`<meta charset = ' gbk '>`))).toBe('gbk');
    expect(declaredCharset(ascii('<meta content="text/html; charset=  Shift_JIS">'))).toBe('cp932');
    expect(declaredCharset(ascii(`<meta charset=${' '.repeat(8_000)}!`))).toBeNull();
  });
});
