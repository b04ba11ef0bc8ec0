import { Worker } from 'node:worker_threads';
import type { AdEvent, AdEventStore, Charge } from '../ports.ts';

export interface EventWriter {
  write(events: readonly AdEvent[]): Promise<Charge[]>;
  close(): Promise<void>;
}

interface Waiting {
  resolve: (charges: Charge[]) => void;
  reject: (e: Error) => void;
}

/**
 * Writes sponsored events from a worker thread with its own connection to sponsored.db, so
 * the SQLite work of impressions (a few microseconds a row, two rows a search) runs beside
 * the request thread instead of on it. Reads stay on the caller's connection (WAL: they see
 * each batch once committed). The thread starts at the first write; when it cannot start
 * or dies, batches are written on this thread by `fallback` instead, so no event is lost.
 */
export function createWorkerEventWriter(file: string, fallback: Pick<AdEventStore, 'write'>): EventWriter {
  let worker: Worker | undefined;
  let ready: Promise<boolean> | undefined;
  let broken = false;
  let nextId = 0;
  const waiting = new Map<number, Waiting>();

  const failAll = (e: Error): void => {
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };

  function start(): Promise<boolean> {
    const w = new Worker(new URL('./ad-event-writer-thread.mjs', import.meta.url), { workerData: { file } });
    w.unref();
    worker = w;
    return new Promise((resolveReady) => {
      w.on('message', (m: { ready?: boolean; id?: number; charges?: Charge[]; error?: string }) => {
        if (m.ready) {
          resolveReady(true);
          return;
        }
        const pending = m.id === undefined ? undefined : waiting.get(m.id);
        if (!pending) return;
        waiting.delete(m.id!);
        if (m.error !== undefined) pending.reject(new Error(m.error));
        else pending.resolve(m.charges ?? []);
      });
      w.on('error', (e) => {
        broken = true;
        resolveReady(false);
        failAll(e);
      });
      w.on('exit', () => {
        worker = undefined;
        ready = undefined;
        resolveReady(false);
        failAll(new Error('the sponsored event writer thread stopped'));
      });
    });
  }

  return {
    async write(events) {
      if (broken) return fallback.write(events);
      ready ??= start();
      if (!(await ready) || worker === undefined) return fallback.write(events);
      const id = nextId++;
      const w = worker;
      return new Promise<Charge[]>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.postMessage({ id, events });
      });
    },
    async close() {
      const w = worker;
      if (!w || !(await ready)) return;
      await new Promise<void>((resolve) => {
        w.once('message', () => resolve());
        w.once('exit', () => resolve());
        w.postMessage({ close: true });
      });
      await w.terminate();
    },
  };
}
