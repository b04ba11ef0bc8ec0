// The sponsored event writer's thread (see ad-event-writer.ts): its own connection to
// sponsored.db writes each batch it is sent and answers with the batch's charges.
// Plain JavaScript so the thread can start without a TypeScript loader; it registers tsx
// itself to load the store code, as bin/scout.mjs does for the process.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { openDatabase } = await import('./open-database.ts');
const { createSqliteAdEventStore } = await import('./sqlite-ad-event-store.ts');

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
