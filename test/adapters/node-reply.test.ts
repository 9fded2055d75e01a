/**
 * The Node mounts write the API's replies (the bridge's lightweight responses, recognised by their
 * brand) from their parts, straight to the socket, without a native `Response`. A handler that
 * answers native Responses goes through the streamed path: both paths must answer byte for byte alike.
 */
import { once } from 'node:events'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type PublicApiHandler } from 'tenant-public-api'
import { toNodeHandler } from 'tenant-public-api/node'
import { replyParts } from '../../adapters/node-bridge/lightweight-response.js'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { mountSeed, TENANT } from './support.js'

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Headers that legitimately differ between two answers: the clock, ids and the rate-limit count. */
function comparable(raw: Raw): Raw {
  const headers = { ...raw.headers }
  for (const name of ['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'keep-alive'])
    delete headers[name]
  return { ...raw, headers, body: raw.body.replace(/"requestId":"[^"]+"/, '"requestId":"…"') }
}

describe('node mount: replies written from their parts', () => {
  const servers: Server[] = []
  let direct = ''
  let wrapped = ''
  let copied = 0 // lightweight replies the wrapper copied: the fast path was there to skip

  beforeAll(async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, mountSeed())
    const api = createPublicApi({ store, keyResolver: testKeyResolver() })
    // The reply copied into a native Response (as a wrapper might), which the mount streams.
    const viaResponse: PublicApiHandler = async (request) => {
      const response = await api(request)
      if (replyParts(response) !== undefined) copied += 1
      return new Response(response.body, response)
    }
    for (const handler of [api, viaResponse]) {
      const server = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1')
      await once(server, 'listening')
      servers.push(server)
    }
    const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    direct = origin(servers[0]!)
    wrapped = origin(servers[1]!)
  })
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))))

  const auth = { authorization: `Bearer ${testKey(TENANT)}` }
  const cases: Array<[string, string, Record<string, string>, string?]> = [
    ['GET', '/api/public/v1/tickets?limit=2', auth],
    ['HEAD', '/api/public/v1/tickets?limit=2', auth],
    ['OPTIONS', '/api/public/v1/tickets', {}],
    ['PUT', '/api/public/v1/tickets', {}],
    ['GET', '/api/public/v1/nope', {}],
    ['GET', '/api/public/v1/tickets', {}],
    ['GET', '/api/public/v1/tickets?limit=500', auth],
    ['POST', '/api/public/v1/automation', { ...auth, 'content-type': 'application/json' }, '{"name":'],
    ['GET', '/api/public/v1/openapi.json', {}],
  ]

  it.each(cases)('%s %s answers alike on both paths', async (method, path, headers, body) => {
    const before = copied
    const [fast, slow] = await Promise.all([
      send(direct, method, path, headers, body),
      send(wrapped, method, path, headers, body),
    ])
    expect(comparable(fast)).toEqual(comparable(slow))
    expect(copied).toBe(before + 1)
    expect(fast.headers['x-request-id']).toBeTypeOf('string')
    if (method !== 'HEAD' && fast.body !== '')
      expect(fast.headers['content-length']).toBe(String(Buffer.byteLength(fast.body)))
  })
})
