// OpenTelemetry through the installed @opentelemetry/api (tracing.mjs, in a process of its own).
import { execFileSync } from 'node:child_process'
import { DEMO_TENANT_ID } from 'tenant-public-api/testing'
import { expect, it } from 'vitest'

it('with a tracer provider registered, a request is a SERVER span named by its route, its store call within', () => {
  const output = execFileSync(process.execPath, ['tracing.mjs'], { encoding: 'utf8', timeout: 60_000 })
  const { status, kinds, spans } = JSON.parse(output.trim()) as {
    status: number
    kinds: { server: number; internal: number }
    spans: unknown[]
  }
  expect(status).toBe(200)
  expect(spans).toEqual([
    {
      name: 'GET /api/public/v1/tickets',
      kind: kinds.server,
      attributes: expect.objectContaining({
        'http.route': '/api/public/v1/tickets',
        'http.response.status_code': 200,
        'tenant.id': DEMO_TENANT_ID,
      }),
      ended: true,
    },
    {
      name: 'store list',
      kind: kinds.internal,
      attributes: { 'store.collection': 'tickets', 'store.method': 'list' },
      ended: true,
    },
  ])
})
