import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';

/**
 * Trace context across the hops that OpenTelemetry's instrumentations do not see: an event's row in the outbox, its
 * message on NATS, the consumer that applies it, and a job scheduled for later. The W3C `traceparent` (and
 * `tracestate`) travel as plain string headers. With no SDK started (tracing is off unless an OTLP endpoint is set),
 * every function here is a cheap no-op: nothing is injected, and spans are not recorded.
 */
export type TraceCarrier = Record<string, string>;

export { SpanKind };

/** The headers that carry the active (or given) context on, or undefined when there is nothing to carry. */
export function traceCarrier(ctx: Context = context.active()): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The context the headers carried; the root context when there are none. */
export function contextFrom(carrier: TraceCarrier | null | undefined): Context {
  return carrier && typeof carrier.traceparent === 'string' ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

const tracer = () => trace.getTracer('@platform/kit');

/**
 * Runs `fn` in a new span, child of `parent` (default: the active context), ended when `fn` settles; a failure is
 * recorded on the span and thrown on.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; parent?: Context; links?: Link[]; attributes?: Attributes },
  fn: () => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, links: options.links, attributes: options.attributes }, parent, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A link to each context that carried one (the events of a batch, applied together). */
export function linksTo(carriers: Array<TraceCarrier | undefined>): Link[] {
  const links: Link[] = [];
  for (const carrier of carriers) {
    const spanContext = carrier && trace.getSpanContext(contextFrom(carrier));
    if (spanContext && isSpanContextValid(spanContext)) links.push({ context: spanContext });
  }
  return links;
}

/** The active span's ids for a log line, or nothing outside a traced call. */
export function traceFields(): { trace_id: string; span_id: string } | Record<string, never> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const spanContext = span.spanContext();
  return isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
}

/** What flushes the spans still buffered before the process exits (set by the tracing bootstrap when it starts). */
let flush: (() => Promise<void>) | undefined;

export function onTelemetryShutdown(fn: () => Promise<void>): void {
  flush = fn;
}

/** Sends what is buffered, for at most `timeoutMs`; a process calls it last on its way out. */
export async function shutdownTelemetry(timeoutMs = 3_000): Promise<void> {
  if (!flush) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([flush().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
