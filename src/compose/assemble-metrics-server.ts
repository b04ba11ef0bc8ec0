import type { ScoutConfig } from '../scout-settings.ts';
import { ConfigError } from '../config/load-config.ts';
import type { Closers } from '../domain/closers.ts';
import { startMetricsServer } from '../http/metrics-server.ts';
import type { ScoutMetrics } from '../metrics/scout-metrics.ts';

/** SCOUT_METRICS_PORT's listener, when it is set: its port, else undefined. */
export async function assembleMetricsServer(
  config: Pick<ScoutConfig, 'metricsPort'>,
  metrics: ScoutMetrics,
  closers: Closers,
): Promise<number | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const port = config.metricsPort;
  const server = await startMetricsServer(metrics, port).catch((e: NodeJS.ErrnoException) => {
    throw new ConfigError(
      `cannot serve metrics on 127.0.0.1:${port}: ${e.code ?? e.message} (set SCOUT_METRICS_PORT)`,
      { cause: e },
    );
  });
  closers.add(() => server.close());
  return server.port;
}
