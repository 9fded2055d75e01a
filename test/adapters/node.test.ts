import { once } from 'node:events'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { connect as http2Connect, createServer as createHttp2Server, type Http2Server } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type PublicApiHandler } from 'tenant-public-api'
import { clientAddress, toNodeHandler } from 'tenant-public-api/node'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { abortMidBody, mountSeed, runMountScenario, TENANT } from './support.js'

const token = testKey(TENANT)

async function listen(server: Server | Http2Server): Promise<string> {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('node:http mount (toNodeHandler)', () => {
  const aborted: string[] = []
  const seen: Array<{ address: string | undefined; url: string }> = []
  const errors: unknown[] = []
  let server: Server
  let origin: string

  beforeAll(async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, mountSeed())
    const api = createPublicApi({ store, keyResolver: testKeyResolver(), onError: (error) => errors.push(error) })
    const observed: PublicApiHandler = (request) => {
      seen.push({ address: clientAddress(request), url: request.url })
      request.signal.addEventListener('abort', () => aborted.push(request.url))
      return api(request)
    }
    server = createServer(toNodeHandler(observed))
    origin = await listen(server)
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('serves the scenario over real HTTP, and a client abort fires request.signal', async () => {
    await runMountScenario(`${origin}/api/public/v1`, token)
    expect(aborted).toContain(`${origin}/api/public/v1/automation`)
    // The aborted body failed the read (never a half-read body reaching the operation), and a client
    // hanging up is not reported to onError as a fault of ours.
    expect(errors).toEqual([])
  })

  it('passes the socket address on, and builds the URL from Host', async () => {
    seen.length = 0
    const response = await fetch(`${origin}/api/public/v1/tickets?limit=1&page=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.status).toBe(200)
    expect(seen[0]).toEqual({ address: '127.0.0.1', url: `${origin}/api/public/v1/tickets?limit=1&page=1` })
  })

  it('ignores X-Forwarded-* unless trustProxy is set', async () => {
    seen.length = 0
    const headers = {
      authorization: `Bearer ${token}`,
      'x-forwarded-for': '203.0.113.7, 10.0.0.1',
      'x-forwarded-host': 'api.example.com',
      'x-forwarded-proto': 'https',
    }
    await fetch(`${origin}/api/public/v1/tickets?limit=1`, { headers })
    expect(seen[0]).toEqual({ address: '127.0.0.1', url: `${origin}/api/public/v1/tickets?limit=1` })

    const trusted = createServer(
      toNodeHandler(
        (request) => {
          seen.push({ address: clientAddress(request), url: request.url })
          return Promise.resolve(new Response(null, { status: 204 }))
        },
        { trustProxy: true },
      ),
    )
    const trustedOrigin = await listen(trusted)
    await fetch(`${trustedOrigin}/api/public/v1/x`, { headers })
    trusted.close()
    expect(seen[1]).toEqual({ address: '203.0.113.7', url: 'https://api.example.com/api/public/v1/x' })
  })

  it('never puts the Host header in a Link: a relative reference, or absolute from publicOrigin', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, mountSeed())
    const linkOf = async (server: Server, headers: Record<string, string>) => {
      const serverOrigin = await listen(server)
      try {
        return await new Promise<string>((resolve, reject) => {
          const target = `${serverOrigin}/api/public/v1/tickets?limit=1`
          const req = httpRequest(target, { headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
            res.resume()
            res.on('end', () => (res.statusCode === 200 ? resolve(String(res.headers.link)) : reject(res.statusCode)))
          })
          req.on('error', reject)
          req.end()
        })
      } finally {
        server.close()
      }
    }
    const hostile = { host: 'evil.example:666', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }
    const mounts = [
      [undefined, false],
      [undefined, true],
      ['https://portal.example', false],
      ['https://portal.example', true],
    ] as const
    for (const [publicOrigin, trustProxy] of mounts) {
      const api = createPublicApi({ store, keyResolver: testKeyResolver(), ...(publicOrigin && { publicOrigin }) })
      const link = await linkOf(createServer(toNodeHandler(api, { trustProxy })), hostile)
      expect(link, `${publicOrigin} ${trustProxy}`).toMatch(
        new RegExp(`^<${publicOrigin ?? ''}/api/public/v1/tickets\\?limit=1&cursor=[A-Za-z0-9_-]+>; rel="next"$`),
      )
      expect(link).not.toContain('evil')
    }
  })

  it('normalises targets that need it and answers a bad Host with a 400 in the Error shape', async () => {
    seen.length = 0
    const response = await fetch(`${origin}/api/public/v1/tickets/../tickets?limit=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.status).toBe(200)
    const badHost = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string; requestId: unknown }>((resolve, reject) => {
        const req = httpRequest(
          `${origin}/api/public/v1/tickets`,
          { headers: { host: 'bad host/x', ...headers } },
          (res) => {
            let body = ''
            res.on('data', (chunk: Buffer) => (body += chunk.toString()))
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, requestId: res.headers['x-request-id'] }))
          },
        )
        req.on('error', reject)
        req.end()
      })
    // A valid client request id is kept, as everywhere in the API; a hostile one is replaced.
    const kept = await badHost({ 'x-request-id': 'req-host-1' })
    expect(kept.status).toBe(400)
    expect(kept.requestId).toBe('req-host-1')
    expect(JSON.parse(kept.body)).toEqual({
      error: 'Invalid Host header',
      code: 'VALIDATION_ERROR',
      requestId: 'req-host-1',
      details: [{ in: 'header', path: 'host', message: 'Must be a host name or IP address, with an optional port' }],
    })
    const fresh = await badHost({ 'x-request-id': 'no spaces allowed' })
    expect(fresh.status).toBe(400)
    expect(fresh.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.parse(fresh.body)).toMatchObject({ code: 'VALIDATION_ERROR', requestId: fresh.requestId })
    expect(fresh.body).not.toContain('bad host')
  })

  it('is a Request to code that needs a native one: clone, text(), new Request(request)', async () => {
    const results: unknown[] = []
    const probe = createServer(
      toNodeHandler(async (request) => {
        results.push(request instanceof Request, request.method, request.headers.get('content-type'))
        const copy = new Request(request)
        results.push(copy.method, copy.url === request.url, await copy.text())
        return new Response('ok')
      }),
    )
    const probeOrigin = await listen(probe)
    const response = await fetch(`${probeOrigin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    })
    probe.close()
    expect(await response.text()).toBe('ok')
    expect(results).toEqual([true, 'POST', 'text/plain', 'POST', true, 'hello'])
  })

  it('hands the API itself its lightweight request, which its hooks can use and copy with clone()', async () => {
    const results: unknown[] = []
    const store = createMemoryStore()
    await store.seed(TENANT, mountSeed())
    const resolver = testKeyResolver()
    const api = createPublicApi({
      store,
      keyResolver: async (key, request) => {
        // What undici's new Request() and fetch() take, whatever the runtime: a native copy.
        const copy = new Request(request.clone())
        results.push(request instanceof Request, clientAddress(request), request.headers.get('authorization'))
        results.push(copy.method, copy.url === request.url, await copy.text())
        return resolver(key, request)
      },
    })
    const direct = createServer(toNodeHandler(api))
    const directOrigin = await listen(direct)
    const body = JSON.stringify({
      name: 'cloned',
      triggerType: 'scheduled',
      triggerConfig: {},
      entityType: 'ticket',
      conditions: [],
      actions: [],
    })
    const response = await fetch(`${directOrigin}/api/public/v1/automation`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    })
    const trace = await new Promise<number>((resolve, reject) => {
      httpRequest(`${directOrigin}/api/public/v1/tickets`, { method: 'TRACE' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
        .on('error', reject)
        .end()
    })
    direct.close()
    // The clone took a copy of the body: the API still read the whole of it.
    expect(response.status).toBe(201)
    expect((await response.json()).data.name).toBe('cloned')
    expect(results).toEqual([true, '127.0.0.1', `Bearer ${token}`, 'POST', true, body])
    expect(trace).toBe(400)
  })

  it('answers a method a Fetch Request cannot carry (TRACE) with a 400 in the Error shape, and serves on', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${origin}/api/public/v1/tickets`, { method: 'TRACE' }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('TRACE') })
    const next = await fetch(`${origin}/api/public/v1/tickets`, { headers: { authorization: `Bearer ${token}` } })
    expect(next.status).toBe(200)
  })

  it('reads a request body from the socket only when the handler reads it', async () => {
    const flowing: Array<boolean | null> = []
    const bodies: string[] = []
    const handler = toNodeHandler(async (request) => {
      if (new URL(request.url).pathname === '/read') bodies.push(await request.text())
      return new Response('ok')
    })
    const probe = createServer((req, res) => {
      handler(req, res)
      // The request is made: a body stream that had started would have put the socket in flowing mode.
      flowing.push(req.readableFlowing)
    })
    const probeOrigin = await listen(probe)
    for (const path of ['/skip', '/read']) {
      const response = await fetch(`${probeOrigin}${path}`, { method: 'POST', body: 'abc' })
      expect(await response.text()).toBe('ok')
    }
    probe.close()
    expect(flowing).toEqual([null, null])
    expect(bodies).toEqual(['abc'])
  })

  it('streams a large response body with back-pressure, to the last byte', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(97)
    const chunks = 64 // 16 MiB: far more than the socket buffers, so write() must return false
    let pulled = 0
    const big = createServer(
      toNodeHandler(
        async () =>
          new Response(
            new ReadableStream<Uint8Array>({
              pull(controller) {
                if (pulled++ === chunks) controller.close()
                else controller.enqueue(chunk)
              },
            }),
            { headers: { 'content-type': 'application/octet-stream' } },
          ),
      ),
    )
    const bigOrigin = await listen(big)
    const received = await new Promise<{ bytes: number; pulledBeforeRead: number }>((resolve, reject) => {
      httpRequest(`${bigOrigin}/big`, (res) => {
        let bytes = 0
        res.pause()
        // While the client reads nothing, the server must stop pulling from the stream.
        setTimeout(() => {
          const pulledBeforeRead = pulled
          res.on('data', (data: Buffer) => (bytes += data.byteLength))
          res.on('end', () => resolve({ bytes, pulledBeforeRead }))
          res.resume()
        }, 300)
      })
        .on('error', reject)
        .end()
    })
    big.close()
    expect(received.bytes).toBe(chunk.byteLength * chunks)
    expect(received.pulledBeforeRead).toBeLessThan(chunks / 2)
  })

  it('serves node:http2 through the compatibility API', async () => {
    const store = createMemoryStore()
    await store.seed(TENANT, mountSeed())
    const api = createPublicApi({ store, keyResolver: testKeyResolver() })
    const server2 = createHttp2Server(toNodeHandler(api))
    const origin2 = await listen(server2)
    const session = http2Connect(origin2)
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const stream = session.request({
        ':path': '/api/public/v1/automation',
        ':method': 'POST',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      })
      let status = 0
      let body = ''
      stream.on('response', (headers) => (status = Number(headers[':status'])))
      stream.on('data', (data: Buffer) => (body += data.toString()))
      stream.on('end', () => resolve({ status, body }))
      stream.on('error', reject)
      stream.end(
        JSON.stringify({
          name: 'h2',
          triggerType: 'scheduled',
          triggerConfig: {},
          entityType: 'ticket',
          conditions: [],
          actions: [],
        }),
      )
    })
    session.close()
    server2.close()
    expect(answer.status).toBe(201)
    expect(JSON.parse(answer.body).data.name).toBe('h2')
  })

  it('keeps serving after many aborted uploads', async () => {
    for (let i = 0; i < 5; i++) await abortMidBody(`${origin}/api/public/v1/automation`, token)
    const response = await fetch(`${origin}/api/public/v1/tickets?limit=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(response.status).toBe(200)
  })
})
