import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import type { Closers } from '../domain/closers.ts';
import { createActivity, type Activity } from '../admin/activity.ts';
import { packageVersion } from '../domain/package-version.ts';
import { createScoutMetrics, type ScoutMetrics } from '../metrics/scout-metrics.ts';
import { startTracing } from '../tracing/start-tracing.ts';
import { lateGaugeSources, type GaugeSources } from './gauge-sources.ts';

export interface Observability {
  /** Prometheus metrics (GET /metrics, SCOUT_METRICS_PORT): everything assembled after counts into them. */
  metrics: ScoutMetrics;
  /** The metrics' gauges, bound once what they read is assembled (gauge-sources.ts). */
  gauges: Pick<GaugeSources, 'bind'>;
  /** What this process served lately, for the dashboard (per replica, since start). */
  activity: Activity;
}

/** Tracing, the metrics and the dashboard's activity: first, since everything else reports to them. */
export async function assembleObservability(
  config: Pick<ScoutConfig, 'tracingOtlpUrl'>,
  logger: Logger,
  closers: Closers,
): Promise<Observability> {
  // Before anything makes a request, so every outbound call is traced.
  if (config.tracingOtlpUrl !== undefined) {
    const tracing = await startTracing({ url: config.tracingOtlpUrl, version: packageVersion() });
    closers.add(() => tracing.close());
    logger.info({ url: config.tracingOtlpUrl }, 'tracing: spans sent to the OTLP endpoint');
  }
  const gauges = lateGaugeSources();
  const metrics = createScoutMetrics(gauges.sources);
  const activity = createActivity();
  return { metrics, gauges, activity };
}
