/**
 * @hono/node-server replaces the global `Response` with a lightweight class of its own, and writes
 * the Responses made with it straight from their parts. Served by it, the API hands it Responses
 * made with that class: the core makes its answers with the global constructor of the moment.
 * In a file of its own: the replaced globals stay in this file's worker.
 */
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, errorResponse, type PublicApiHandler } from 'tenant-public-api'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { mountSeed, TENANT } from './support.js'

const runtimeResponse = globalThis.Response
let api: PublicApiHandler
let server: Server
let origin = ''

beforeAll(async () => {
  const store = createMemoryStore()
  await store.seed(TENANT, mountSeed())
  api = createPublicApi({ store, keyResolver: testKeyResolver() })
  server = serve({ fetch: api, port: 0, hostname: '127.0.0.1' }) as Server
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('the API served by @hono/node-server', () => {
  it("answers with the host's Response class once the host has replaced the global", async () => {
    expect(globalThis.Response).not.toBe(runtimeResponse)
    const response = await api(new Request(`${origin}/api/public/v1/openapi.json`))
    expect(response).toBeInstanceOf(globalThis.Response)
    expect(Object.getPrototypeOf(response)).toBe(globalThis.Response.prototype)
    expect(errorResponse(400, 'VALIDATION_ERROR', 'x', 'r-1')).toBeInstanceOf(globalThis.Response)
  })

  it('serves over HTTP: a list with its headers and length, a 404, HEAD without body', async () => {
    const auth = { authorization: `Bearer ${testKey(TENANT)}`, 'x-request-id': 'hono-1' }
    const list = await fetch(`${origin}/api/public/v1/tickets?limit=2`, { headers: auth })
    expect(list.status).toBe(200)
    expect(list.headers.get('x-request-id')).toBe('hono-1')
    expect(list.headers.get('x-content-type-options')).toBe('nosniff')
    const text = await list.text()
    expect(list.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect((JSON.parse(text) as { data: unknown[] }).data).toHaveLength(2)
    const missing = await fetch(`${origin}/api/public/v1/nope`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND')
    const head = await fetch(`${origin}/api/public/v1/tickets?limit=2`, { method: 'HEAD', headers: auth })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })
})
