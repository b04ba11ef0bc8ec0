// The sponsored event writer's thread (see ad-event-writer.ts): its own connection to
// sponsored.db writes each batch it is sent and answers with the batch's charges.
// Plain JavaScript so the thread can start without a TypeScript loader. Built (dist/, where
// the build copies this file beside the compiled store code) it imports JavaScript; run from
// src/ (vitest imports the sources) it registers tsx first to load the .ts beside it.
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const compiled = existsSync(new URL('./open-database.js', import.meta.url));
if (!compiled) (await import('tsx/esm/api')).register();
const ext = compiled ? '.js' : '.ts';
const { openDatabase } = await import(`./open-database${ext}`);
const { createSqliteAdEventStore } = await import(`./sqlite-ad-event-store${ext}`);

const db = openDatabase(workerData.file);
const store = createSqliteAdEventStore(db);
parentPort.on('message', async (message) => {
  if (message.close) {
    db.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, charges: await store.write(message.events) });
  } catch (e) {
    parentPort.postMessage({ id: message.id, error: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
