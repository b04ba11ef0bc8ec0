// An extraction worker of the fetch pool (see extract-pool.ts): piscina calls the default
// export with one page (body, content type, URL) and posts back its ExtractReply.
// Plain JavaScript so the thread can start without a TypeScript loader; it registers tsx
// itself to load the extraction code, as bin/scout.mjs does for the process. The import is
// awaited at the top, so piscina only reports the worker ready once the code is loaded.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runExtractTask } = await import('./extract-task.ts');
const { lowerThreadPriority } = await import('./thread-priority.ts');
// Below the event loop's priority: pages take the CPU the API leaves (thread-priority.ts).
lowerThreadPriority(workerData?.nice ?? 0);

export default runExtractTask;
