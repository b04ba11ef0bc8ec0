/**
 * Optional OpenTelemetry tracing (SCOUT_TRACING_OTLP_URL; docs/operations.md, "Tracing"):
 * spans go to an OTLP/HTTP endpoint in batches. Outbound HTTP through undici (fetches,
 * providers, landing checks) gets a client span under the request's server span; the server
 * spans come from @fastify/otel (http/tracing-plugin.ts). Loaded only when the setting is
 * set: without it no OpenTelemetry module is imported.
 */
export interface Tracing {
  /** Sends what is still batched, then stops tracing (the global provider is released). */
  close(): Promise<void>;
}

export async function startTracing(o: { url: string; version: string }): Promise<Tracing> {
  const api = await import('@opentelemetry/api');
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'scout', 'service.version': o.version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: o.url }), { scheduledDelayMillis: 1000 })],
  });
  // Global: @fastify/otel and the undici instrumentation find the provider there.
  provider.register();
  const undici = new UndiciInstrumentation();
  undici.setTracerProvider(provider);
  undici.enable();
  return {
    async close() {
      undici.disable();
      await provider.shutdown();
      // Released, so a later Scout in this process (tests) can register its own.
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
}
