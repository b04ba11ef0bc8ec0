import { stat } from 'node:fs/promises';

/** What `scout index` commands share, whichever index they write: output and input checks. */

/** Bad lines printed one by one before the rest are only counted, so a bad file can't flood the terminal. */
export const MAX_REPORTED = 100;

export const write = (stream: NodeJS.WritableStream, text: string): void => {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
};

export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** True when `file` is a readable file; else says why on stderr. */
export async function importableFile(file: string, io: { stderr: NodeJS.WritableStream }): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
    return true;
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    write(io.stderr, `scout index import: cannot read ${file}: ${reason}`);
    return false;
  }
}
