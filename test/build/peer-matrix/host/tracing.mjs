// OpenTelemetry through the installed @opentelemetry/api, in a plain Node.js process (the API loads
// the package itself, by a dynamic import): with a tracer provider registered, a request is a SERVER
// span named by its route, and its store call a span within it. The provider records what the API
// asks of the API package alone (the SDK's releases trail the API's: a host on the newest API may
// have none). Run by checks/tracing.check.ts; prints the spans of one request as one JSON line.
import { SpanKind, trace } from '@opentelemetry/api'
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { DEMO_TENANT_ID, testKey, testKeyResolver } from 'tenant-public-api/testing'

const recorded = []
const tracer = {
  startSpan(name, options) {
    const entry = { name, kind: options?.kind, attributes: { ...options?.attributes }, ended: false }
    recorded.push(entry)
    const span = {
      spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
      setAttribute(key, value) {
        entry.attributes[key] = value
        return span
      },
      setAttributes(attributes) {
        Object.assign(entry.attributes, attributes)
        return span
      },
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus: () => span,
      updateName(next) {
        entry.name = next
        return span
      },
      end: () => {
        entry.ended = true
      },
      isRecording: () => true,
      recordException: () => {},
    }
    return span
  },
  startActiveSpan() {
    throw new Error('the API starts no active span')
  },
}
if (!trace.setGlobalTracerProvider({ getTracer: () => tracer })) throw new Error('no tracer provider registered')

const api = createPublicApi({ store: createMemoryStore(), keyResolver: testKeyResolver() })
const headers = { authorization: `Bearer ${testKey(DEMO_TENANT_ID)}` }
const request = () => api(new Request('http://peer-matrix.test/api/public/v1/tickets', { headers }))
// The API loads @opentelemetry/api in the background: requests are traced once it has loaded.
const deadline = Date.now() + 5000
while (recorded.length === 0) {
  if (Date.now() > deadline) throw new Error('requests never became traced')
  await request()
  await new Promise((resolve) => setTimeout(resolve, 10))
}
recorded.length = 0
const status = (await request()).status
console.log(
  JSON.stringify({ status, kinds: { server: SpanKind.SERVER, internal: SpanKind.INTERNAL }, spans: recorded }),
)
