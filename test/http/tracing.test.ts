import { context, propagation, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, StoreUnavailableError } from 'tenant-public-api'
import { testKey, testKeyResolver, type Reply } from 'tenant-public-api/testing'
import { BASE, failingStore, IDS, ORIGIN, setup, TENANT } from './fixture.js'

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })

beforeAll(() => {
  trace.setGlobalTracerProvider(provider)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
})
afterAll(async () => {
  trace.disable()
  propagation.disable()
  context.disable()
  await provider.shutdown()
})
afterEach(() => exporter.reset())

/** The API loads @opentelemetry/api in the background: wait until its requests are traced. */
async function traced(api: (request: Request) => Promise<Response>): Promise<void> {
  const deadline = Date.now() + 5000
  while (exporter.getFinishedSpans().length === 0) {
    if (Date.now() > deadline) throw new Error('requests never became traced')
    await api(new Request(`${ORIGIN}${BASE}/openapi.json`))
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  exporter.reset()
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name)

describe('OpenTelemetry', () => {
  it('each request is a SERVER span {method} {route}: HTTP conventions, tenant, key, request id', async () => {
    const { api, h } = await setup()
    await traced(api)
    await h.call<Reply<'getTicket'>>('GET', `/tickets/${IDS.ticket}`, { headers: { 'x-request-id': 'req-42' } })
    const spans = exporter.getFinishedSpans()
    const [server] = spans.filter((span) => span.kind === SpanKind.SERVER)
    expect(spans.filter((span) => span.kind === SpanKind.SERVER)).toHaveLength(1)
    expect(server!.name).toBe(`GET ${BASE}/tickets/{id}`)
    expect(server!.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': `${BASE}/tickets/{id}`,
      'http.response.status_code': 200,
      'tenant.id': TENANT,
      'api_key.id': testKey(TENANT),
      'request.id': 'req-42',
    })
    expect(server!.status.code).toBe(SpanStatusCode.UNSET)
  })

  it("store calls are child spans of the request's span", async () => {
    const { api, h } = await setup()
    await traced(api)
    await h.call<Reply<'updateBudget'>>('PATCH', `/budgets/${IDS.budget}`, { body: { title: 'Renamed' } })
    const spans = exporter.getFinishedSpans()
    const server = spans.find((span) => span.kind === SpanKind.SERVER)!
    const children = spans.filter((span) => span.name.startsWith('store '))
    expect(children.length).toBeGreaterThan(0)
    for (const child of children) {
      expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId)
      expect(child.spanContext().traceId).toBe(server.spanContext().traceId)
      expect(child.attributes['store.method']).toBe(child.name.slice('store '.length))
    }
    expect(byName(children, 'store patch')).toHaveLength(1)
    expect(byName(children, 'store patch')[0]!.attributes['store.collection']).toBe('budgets')
  })

  it("joins the client's trace from traceparent", async () => {
    const { api, h } = await setup()
    await traced(api)
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    await h.call<Reply<'listTickets'>>('GET', '/tickets', {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    })
    const server = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER)!
    expect(server.spanContext().traceId).toBe(traceId)
    expect(server.parentSpanContext?.spanId).toBe('00f067aa0ba902b7')
  })

  it('no route: named by the method; errors carry their status; 5xx mark the span and the store span', async () => {
    const { api, h } = await setup()
    await traced(api)
    await h.call('GET', '/nowhere')
    await h.call<Reply<'listTickets'>>('GET', '/tickets', { key: 'unknown' })
    const [notFound, unauthorized] = exporter.getFinishedSpans()
    expect(notFound!.name).toBe('GET')
    expect(notFound!.attributes['http.response.status_code']).toBe(404)
    expect(notFound!.attributes['http.route']).toBeUndefined()
    expect(notFound!.status.code).toBe(SpanStatusCode.UNSET)
    expect(unauthorized!.name).toBe(`GET ${BASE}/tickets`)
    expect(unauthorized!.attributes['http.response.status_code']).toBe(401)
    expect(unauthorized!.attributes['tenant.id']).toBeUndefined()
    exporter.reset()

    const down = createPublicApi({
      store: failingStore(createMemoryStore(), () => new StoreUnavailableError(new Error('secret cause'))),
      keyResolver: testKeyResolver(),
      onError: () => {},
    })
    await traced(down)
    const response = await down(
      new Request(`${ORIGIN}${BASE}/tickets`, { headers: { authorization: `Bearer ${testKey(TENANT)}` } }),
    )
    expect(response.status).toBe(503)
    const spans = exporter.getFinishedSpans()
    const server = spans.find((span) => span.kind === SpanKind.SERVER)!
    expect(server.status.code).toBe(SpanStatusCode.ERROR)
    expect(server.attributes['error.type']).toBe('SERVICE_UNAVAILABLE')
    const [store] = byName(spans, 'store list')
    expect(store!.attributes['store.collection']).toBe('tickets')
    expect(store!.status.code).toBe(SpanStatusCode.ERROR)
    expect(store!.attributes['error.type']).toBe('StoreUnavailableError')
    expect(JSON.stringify(spans.map((span) => [span.attributes, span.status, span.events]))).not.toContain('secret')
  })

  it("an MCP tool call is a SERVER span of its operation, with mcp.tool, in the MCP request's trace", async () => {
    const store = createMemoryStore()
    const api = createPublicApi({ store, keyResolver: testKeyResolver(), mcp: true })
    await traced(api)
    const response = await api(
      new Request(`${ORIGIN}${BASE}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${testKey(TENANT)}`,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listTickets' } }),
      }),
    )
    expect(response.status).toBe(200)
    const servers = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER)
    expect(servers.map((span) => [span.name, span.attributes['mcp.tool']])).toEqual([
      [`GET ${BASE}/tickets`, 'listTickets'],
      [`POST ${BASE}/mcp`, undefined],
    ])
    const [call, mcp] = servers
    expect(call!.spanContext().traceId).toBe(mcp!.spanContext().traceId)
    expect(call!.parentSpanContext?.spanId).toBe(mcp!.spanContext().spanId)
  })

  it('with no tracer provider registered, nothing is recorded and requests are answered as before', async () => {
    const { api, h } = await setup()
    await traced(api)
    trace.disable()
    try {
      expect((await h.call('GET', '/tickets')).status).toBe(200)
      expect(exporter.getFinishedSpans()).toEqual([])
    } finally {
      trace.setGlobalTracerProvider(provider)
    }
  })
})
