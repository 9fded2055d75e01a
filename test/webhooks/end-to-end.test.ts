/**
 * End to end, as a user runs it: an API over a store, an endpoint made with POST /webhook-endpoints,
 * a ticket synced into the store, one dispatcher pass, and examples/webhook-receiver (started as its
 * README says, with the endpoint's secret) prints the ticket's event, verified.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { fixtureSeed } from 'tenant-public-api/conformance'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { createWebhookDispatcher } from 'tenant-public-api/webhooks'
import { afterAll, expect, it } from 'vitest'

let child: ChildProcess | undefined
afterAll(() => {
  child?.kill('SIGKILL')
})

/** Starts the example receiver with `secret`; resolves with its URL and a reader of what it printed. */
async function startExampleReceiver(secret: string): Promise<{ url: string; printed: () => unknown[] }> {
  child = spawn(process.execPath, ['--import', 'tsx', 'examples/webhook-receiver/server.ts'], {
    env: { ...process.env, PORT: '0', WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    let errors = ''
    child!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    child!.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child!.on('exit', (code) => reject(new Error(`receiver exited with ${code}: ${errors}`)))
  })
  const printed = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
  return { url, printed }
}

it('a ticket synced after POST /webhook-endpoints reaches the example receiver, verified', {
  timeout: 60_000,
}, async () => {
  const store = createMemoryStore()
  const tenantId = 'tenant-end-to-end'
  const api = createPublicApi({ store, keyResolver: testKeyResolver(), webhooks: { allowInsecureUrls: true } })
  const headers = { authorization: `Bearer ${testKey(tenantId)}`, 'content-type': 'application/json' }
  const base = 'http://api.test/api/public/v1'
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await api(new Request(`${base}${path}`, { method, headers, body: JSON.stringify(body) }))
    return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
  }
  // The receiver needs the secret to start, and the endpoint its URL: create, start, then point it there.
  const created = await call('POST', '/webhook-endpoints', {
    url: 'http://127.0.0.1:9/placeholder',
    events: ['ticket.created'],
  })
  expect(created.status).toBe(201)
  const receiver = await startExampleReceiver(String(created.body.data.secret))
  const id = String(created.body.data.id)
  expect((await call('PATCH', `/webhook-endpoints/${id}`, { url: receiver.url })).status).toBe(200)

  const ticket = fixtureSeed('a').tickets![0]!
  await store.seed(tenantId, { tickets: [ticket] })
  const counts = await createWebhookDispatcher({ store, allowInsecureUrls: true }).runOnce()
  expect(counts).toMatchObject({ enqueued: 1, delivered: 1, failed: 0, retrying: 0 })

  for (let i = 0; i < 100 && receiver.printed().length === 0; i++) await new Promise((r) => setTimeout(r, 50))
  const events = await call('GET', '/events?types=ticket.created')
  const event = (events.body.data as unknown as { id: string }[])[0]!
  expect(receiver.printed()).toEqual([
    { received: event.id, type: 'ticket.created', resource: { type: 'ticket', id: ticket.id } },
  ])
  const deliveries = await call('GET', `/webhook-endpoints/${id}/deliveries`)
  expect(deliveries.body.data).toEqual([
    expect.objectContaining({ eventId: event.id, status: 'succeeded', responseStatus: 204 }),
  ])
})
