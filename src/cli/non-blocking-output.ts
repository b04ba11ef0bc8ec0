import { Writable } from 'node:stream';

/** Most bytes left waiting for a slow or stalled reader before further lines are dropped. */
export const MAX_PENDING_BYTES = 1024 * 1024;

export interface NonBlockingOutputOptions {
  /** The stream's name in the notices ("stdout"). */
  name: string;
  /** Where the notices go (stderr); each kind is said once. */
  notice: (line: string) => void;
  maxPendingBytes?: number;
}

/**
 * The server's stdout (logs, the first key, the listening line), made harmless to serving:
 * a write never blocks and never throws. When the reader is gone (`npm start | head -5`
 * once head exits: EPIPE), lines are dropped from then on; when the reader does not keep
 * up, at most `maxPendingBytes` wait in memory and lines beyond are dropped. Either is said
 * once through `notice`.
 *
 * Why not pino's own fd-1 destination: it answers an EPIPE by dropping, but registers an
 * exit hook that flushes synchronously and retries any write error every 100 ms forever
 * (sonic-boom 4 flushSync), so a process that meets a dead or full pipe at exit never ends,
 * and SIGTERM, whose handler needs the event loop, is ignored. Node's own stdout stream
 * writes pipes without blocking (libuv queues what the pipe cannot take), reports EPIPE as
 * an 'error' event, which crashes the process unless someone listens, and holds the queue
 * unbounded; this wrapper listens and bounds it.
 */
export function nonBlockingOutput(target: Writable, o: NonBlockingOutputOptions): Writable {
  const max = o.maxPendingBytes ?? MAX_PENDING_BYTES;
  let broken = false;
  const said = new Set<string>();
  const sayOnce = (kind: string, line: string): void => {
    if (said.has(kind)) return;
    said.add(kind);
    try {
      o.notice(line);
    } catch {
      // stderr is gone too: nobody to tell.
    }
  };
  const fail = (e: unknown): void => {
    broken = true;
    const reason = (e as NodeJS.ErrnoException | undefined)?.code ?? String(e);
    sayOnce('closed', `scout: cannot write to ${o.name} (${reason}): log lines are dropped from now on\n`);
  };
  target.on('error', fail);

  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, encoding: BufferEncoding, callback: () => void) {
      if (broken || target.destroyed) {
        // Dropped: the reader is gone.
      } else if (target.writableLength > max) {
        sayOnce(
          'full',
          `scout: ${o.name} is not being read: log lines are dropped while more than ${Math.ceil(max / 1024)} KiB wait\n`,
        );
      } else {
        try {
          target.write(chunk, encoding);
        } catch (e) {
          fail(e); // a synchronous stream (a file) that failed, e.g. ENOSPC
        }
      }
      callback();
    },
  });
}
