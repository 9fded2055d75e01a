/**
 * Under the Node mounts the API answers with the bridge's lightweight responses
 * (adapters/node-bridge/lightweight-response.ts): the bridge's request carries the factory that
 * makes them, and they hold a status, a headers record and a body string behind
 * `Response.prototype`, building the native `Response` only when a member needs it. To any code
 * using the public members they must be Responses, indistinguishable from native ones.
 */
import { once } from 'node:events'
import { createServer, IncomingMessage, request as httpRequest, ServerResponse } from 'node:http'
import { type AddressInfo, Socket } from 'node:net'
import { inspect } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type PublicApiHandler } from 'tenant-public-api'
import { createNodeRequest, toNodeHandler } from 'tenant-public-api/node'
import { makeLightweightResponse, replyParts } from '../../adapters/node-bridge/lightweight-response.js'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import { mountSeed, TENANT } from './support.js'

const auth = { authorization: `Bearer ${testKey(TENANT)}` }
let api: PublicApiHandler

beforeAll(async () => {
  const store = createMemoryStore()
  await store.seed(TENANT, mountSeed())
  api = createPublicApi({ store, keyResolver: testKeyResolver() })
})

/** The request the Node mounts hand the API for `method path` with `headers`, without a socket. */
function bridgeRequest(path: string, method = 'GET', headers: Record<string, string> = {}): Request {
  const incoming = new IncomingMessage(new Socket())
  incoming.method = method
  incoming.url = `/api/public/v1${path}`
  incoming.headers = { host: 'api.test' }
  incoming.rawHeaders = ['Host', 'api.test', ...Object.entries(headers).flat()]
  return createNodeRequest(incoming, new ServerResponse(incoming))
}

const page = (method = 'GET') => api(bridgeRequest('/tickets?limit=2', method, { ...auth, 'x-request-id': 'lw-1' }))

describe('the lightweight response', () => {
  it('is a Response, answers status and the constant attributes without building a native one', async () => {
    const response = await page()
    expect(response).toBeInstanceOf(Response)
    expect(Object.prototype.toString.call(response)).toBe('[object Response]')
    expect([response.status, response.ok, response.statusText, response.type, response.url]).toEqual([
      200,
      true,
      '',
      'default',
      '',
    ])
    expect([response.redirected, response.bodyUsed]).toEqual([false, false])
    // Still only parts: a Node mount would write them as they are.
    expect(replyParts(response)).toMatchObject({ status: 200, headers: { 'x-request-id': 'lw-1' } })
    expect(inspect(response)).toContain('Response (lightweight)')
  })

  it('has Headers, and from then on the native response is the truth (the parts are no longer offered)', async () => {
    const response = await page()
    expect(response.headers).toBeInstanceOf(Headers)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('x-request-id')).toBe('lw-1')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull()
    expect(replyParts(response)).toBeUndefined()
    response.headers.set('x-added', 'yes')
    expect(response.headers.get('x-added')).toBe('yes')
  })

  it('reads its body as json, text, bytes, arrayBuffer, blob and a stream, once', async () => {
    const expected = (await (await page()).json()) as { data: unknown[] }
    expect(expected.data).toHaveLength(2)
    const text = JSON.stringify(expected)

    const json = await page()
    expect(await json.json()).toEqual(expected)
    expect(json.bodyUsed).toBe(true)
    await expect(json.text()).rejects.toThrow(TypeError)

    expect(await (await page()).text()).toBe(text)
    expect(new TextDecoder().decode(await (await page()).bytes())).toBe(text)
    expect(new TextDecoder().decode(await (await page()).arrayBuffer())).toBe(text)
    expect(await (await (await page()).blob()).text()).toBe(text)

    const streamed = await page()
    expect(streamed.body).toBeInstanceOf(ReadableStream)
    let read = ''
    const decoder = new TextDecoder()
    for await (const chunk of streamed.body as unknown as AsyncIterable<Uint8Array>)
      read += decoder.decode(chunk, { stream: true })
    expect(read).toBe(text)
    expect(streamed.bodyUsed).toBe(true)
  })

  it('answers text() and json() from its parts; then the body is used as a native one would be', async () => {
    const read = await page()
    const text = await read.text()
    expect(JSON.parse(text).data).toHaveLength(2)
    expect(read.bodyUsed).toBe(true)
    expect(replyParts(read)).toBeUndefined() // a mount must not write a body that was read
    expect(read.headers.get('x-request-id')).toBe('lw-1') // headers after the body, as the testing kit reads
    expect(read.bodyUsed).toBe(true)
    for (const again of [() => read.text(), () => read.json(), () => read.bytes(), () => read.arrayBuffer()])
      await expect(again()).rejects.toThrow(TypeError)
    await expect(read.blob()).rejects.toThrow(TypeError)
    expect(() => read.clone()).toThrow(TypeError)

    const parsed = await page()
    expect(((await parsed.json()) as { data: unknown[] }).data).toHaveLength(2)
    await expect(parsed.text()).rejects.toThrow(TypeError)
    // No body (HEAD): json() rejects with a SyntaxError, as a native response's does.
    await expect(new Response(null).json()).rejects.toThrow(SyntaxError)
    await expect((await page('HEAD')).json()).rejects.toThrow(SyntaxError)
  })

  it('clones, and is copied by new Response(response.body, response) as a native one would be', async () => {
    const original = await page()
    const clone = original.clone()
    expect(clone).toBeInstanceOf(Response)
    const [a, b] = await Promise.all([original.text(), clone.text()])
    expect(a).toBe(b)

    const source = await page()
    const copy = new Response(source.body, source)
    expect(copy.status).toBe(200)
    expect(copy.headers.get('x-request-id')).toBe('lw-1')
    expect(await copy.text()).toBe(a)
  })

  it('answers HEAD with the GET headers and no body; OPTIONS with 204 and no body', async () => {
    const head = await page('HEAD')
    expect(head.status).toBe(200)
    expect(replyParts(head)?.body).toBeNull()
    expect(head.body).toBeNull()
    expect(await head.text()).toBe('')
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8')

    const options = await api(bridgeRequest('/tickets', 'OPTIONS'))
    expect([options.status, options.ok, options.body]).toEqual([204, true, null])
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('is the answer on every path: errors, 404, openapi.json and the docs page', async () => {
    const missing = await api(bridgeRequest('/nope'))
    expect(replyParts(missing)?.status).toBe(404)
    expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND')
    const anonymous = await api(bridgeRequest('/tickets'))
    expect(replyParts(anonymous)?.headers['www-authenticate']).toMatch(/^Bearer/)
    const document = await api(bridgeRequest('/openapi.json'))
    expect(replyParts(document)?.headers['cache-control']).toBe('public, max-age=300')
    expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0')
    const docs = await api(bridgeRequest('/docs'))
    expect(replyParts(docs)?.headers['content-security-policy']).toBeTruthy()
    expect(await docs.text()).toContain('<html')
  })

  it('is recognised by its registered brand alone, as another copy of the package would make it', () => {
    const parts = { status: 201, headers: { 'content-type': 'text/plain' }, body: 'made elsewhere' }
    const foreign = Object.assign(Object.create(Response.prototype), { [Symbol.for('tenant-public-api.reply')]: parts })
    expect(replyParts(foreign)).toBe(parts)
    expect(replyParts(new Response('plain'))).toBeUndefined()
    const made = makeLightweightResponse({ status: 204, headers: { allow: 'GET' }, body: null })
    expect(replyParts(made)).toEqual({ status: 204, headers: { allow: 'GET' }, body: null })
  })

  it("is the bridge's answer only: the same API answers a Fetch request with a native Response", async () => {
    expect(replyParts(await page())).toBeDefined()
    const native = await api(new Request('http://api.test/api/public/v1/tickets?limit=2', { headers: auth }))
    expect(Object.getPrototypeOf(native)).toBe(Response.prototype)
    expect(replyParts(native)).toBeUndefined()
  })
})

describe('the Node mount and a lightweight response', () => {
  it('writes the headers a wrapper changed (through the native response), not the stale parts', async () => {
    const wrapped: PublicApiHandler = async (request) => {
      const response = await api(request)
      response.headers.set('x-wrapped', 'yes')
      return response
    }
    const server = createServer(toNodeHandler(wrapped)).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        httpRequest(`http://127.0.0.1:${port}/api/public/v1/tickets?limit=1`, { headers: auth }, (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => (body += chunk))
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
        })
          .on('error', reject)
          .end()
      },
    )
    server.close()
    expect(answer.status).toBe(200)
    expect(answer.headers['x-wrapped']).toBe('yes')
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)))
    expect((JSON.parse(answer.body) as { data: unknown[] }).data).toHaveLength(1)
  })
})
