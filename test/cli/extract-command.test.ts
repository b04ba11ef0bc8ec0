import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-io.ts';
import { extractCommand } from '../../src/cli/extract-command.ts';

async function runExtract(argv: string[], stdin: string | Uint8Array) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await extractCommand(argv, { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, env: {} });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

const PAGE = `<!doctype html><html><head><title>Notes</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Notes</h1><p>First paragraph with a <a href="docs/intro">relative link</a>.</p></article></body></html>`;

describe('scout extract', () => {
  it('prints the markdown of the HTML on stdin, links made absolute against --base-url', async () => {
    const result = await runExtract(['--base-url', 'https://site.example/guide/'], PAGE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('[relative link](https://site.example/guide/docs/intro)');
    expect(result.stdout).not.toContain('Home');
    expect(result.stdout.endsWith('\n')).toBe(true);
  });

  it('honours --content-type', async () => {
    const result = await runExtract(['--base-url=https://x.example/', '--content-type', 'application/json'], '{"a":1}');
    expect(result.stdout).toBe('```json\n{\n  "a": 1\n}\n```\n');
  });

  it('reports an unsupported body on stderr with exit code 1', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    const result = await runExtract(['--base-url', 'https://x.example/'], png);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('image/png');
  });

  it('requires an absolute --base-url', async () => {
    await expect(runExtract([], PAGE)).rejects.toBeInstanceOf(UsageError);
    await expect(runExtract(['--base-url', 'relative/path'], PAGE)).rejects.toThrow(/absolute URL/);
  });
});
