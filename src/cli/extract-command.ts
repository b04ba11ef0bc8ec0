import { isDomainError } from '../domain/errors.ts';
import { extractDocument } from '../extract/extract-document.ts';
import { type CliCommand, type CliIO, UsageError } from './cli-io.ts';
import { parseFlags } from './parse-flags.ts';

interface ExtractArgs {
  baseUrl: string;
  contentType: string | null;
}

function parseArgs(argv: string[]): ExtractArgs {
  const { flags, positional } = parseFlags(argv, { 'base-url': 'string', 'content-type': 'string' });
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
  const baseUrl = flags['base-url'];
  if (typeof baseUrl !== 'string') throw new UsageError('--base-url is required');
  if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url must be an absolute URL, got ${baseUrl}`);
  const contentType = flags['content-type'];
  return { baseUrl, contentType: typeof contentType === 'string' ? contentType : null };
}

async function readAll(stream: CliIO['stdin']): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * `scout extract`: runs the /v1/fetch extractor on a body read from stdin and prints the
 * markdown. Without --content-type the body is sniffed, as for an origin that sent none.
 */
export const extractCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv);
  const body = await readAll(io.stdin);
  try {
    const doc = await extractDocument({ body, contentType: args.contentType, url: args.baseUrl });
    io.stdout.write(doc.markdown.endsWith('\n') ? doc.markdown : `${doc.markdown}\n`);
    return 0;
  } catch (e) {
    if (!isDomainError(e)) throw e;
    io.stderr.write(`scout extract: ${e.message}\n`);
    return 1;
  }
};
