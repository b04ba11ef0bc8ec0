// An extraction worker of the fetch pool (see extract-pool.ts): piscina calls the default
// export with one page (body, content type, URL) and posts back its ExtractReply.
// Plain JavaScript so the thread can start without a TypeScript loader. Built (dist/, where
// the build copies this file beside the compiled extract-task.js) it imports JavaScript; run
// from src/ (vitest imports the sources) it registers tsx first to load the .ts beside it.
// The import is awaited at the top, so piscina only reports the worker ready once the code
// is loaded.
import { existsSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

const compiled = existsSync(new URL('./extract-task.js', import.meta.url));
if (!compiled) (await import('tsx/esm/api')).register();
const ext = compiled ? '.js' : '.ts';
const { runExtractTask } = await import(`./extract-task${ext}`);
const { lowerThreadPriority } = await import(`./thread-priority${ext}`);
// Below the event loop's priority: pages take the CPU the API leaves (thread-priority.ts).
lowerThreadPriority(workerData?.nice ?? 0);

export default runExtractTask;
