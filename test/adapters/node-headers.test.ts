/**
 * The Node bridge answers `request.headers.get/has` from the raw header list; everything else is a
 * native Headers (the native request's own, or one the lightweight request builds on first use).
 * Either way, on either request, it must answer exactly as a native `Headers` filled from the same
 * raw list.
 */
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi } from 'tenant-public-api'
import { createNodeRequest } from 'tenant-public-api/node'
import { requestFor } from '../../adapters/node-bridge/bridge-request.js'

// The API itself gets the lightweight request; any other handler (and createNodeRequest) the native one.
const api = createPublicApi({ store: createMemoryStore(), keyResolver: () => null })

const KINDS = {
  native: (incoming: IncomingMessage) => createNodeRequest(incoming, new ServerResponse(incoming)),
  lightweight: (incoming: IncomingMessage) => requestFor(api, incoming, new ServerResponse(incoming), {}),
}

function requestOf(kind: keyof typeof KINDS, rawHeaders: string[]): Request {
  const incoming = new IncomingMessage(new Socket())
  incoming.method = 'GET'
  incoming.url = '/api/public/v1/tickets'
  incoming.rawHeaders = rawHeaders
  incoming.headers = { host: 'example.test' }
  return KINDS[kind](incoming)
}

function nativeOf(rawHeaders: string[]): Headers {
  const headers = new Headers()
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (!rawHeaders[i]!.startsWith(':')) headers.append(rawHeaders[i]!, rawHeaders[i + 1]!)
  return headers
}

const RAW = [
  'Host',
  'example.test',
  'Authorization',
  'Bearer one',
  'authorization',
  'Bearer two',
  'Cookie',
  'a=1',
  'cookie',
  'b=2',
  'X-Request-Id',
  ' req-1 ',
  'Accept',
  'application/json',
  'ACCEPT',
  'text/plain',
  'Content-Type',
  'application/json',
]
const NAMES = [
  'host',
  'HOST',
  'authorization',
  'cookie',
  'x-request-id',
  'accept',
  'content-type',
  'missing',
  'Content-Length',
  'if-match',
]

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)('Node bridge request headers (%s request)', (kind) => {
  const requestWith = (rawHeaders: string[]) => requestOf(kind, rawHeaders)

  it('answer get and has as a native Headers would (case, repeats joined, Cookie with "; ", whitespace)', () => {
    const request = requestWith(RAW)
    const native = nativeOf(RAW)
    for (const name of NAMES) {
      expect(request.headers.get(name), name).toBe(native.get(name))
      expect(request.headers.has(name), name).toBe(native.has(name))
    }
    // Two Authorization headers are one invalid value, never the first one alone.
    expect(request.headers.get('authorization')).toBe('Bearer one, Bearer two')
  })

  it('refuse an invalid header name as a native Headers does', () => {
    const request = requestWith(RAW)
    expect(() => request.headers.get('bad name')).toThrow(TypeError)
    expect(() => request.headers.has('bad name')).toThrow(TypeError)
  })

  it('are Headers: iteration, forEach, getSetCookie, mutation, and new Request/new Headers from them', () => {
    const request = requestWith(RAW)
    const native = nativeOf(RAW)
    expect(request.headers).toBeInstanceOf(Headers)
    expect([...request.headers]).toEqual([...native])
    expect([...request.headers.keys()]).toEqual([...native.keys()])
    const seen: string[] = []
    request.headers.forEach((value, key, parent) => {
      expect(parent).toBe(request.headers)
      seen.push(`${key}=${value}`)
    })
    expect(seen).toEqual([...native].map(([key, value]) => `${key}=${value}`))
    expect(new Headers(request.headers).get('accept')).toBe('application/json, text/plain')
    expect(new Request('http://example.test/', { headers: request.headers }).headers.get('x-request-id')).toBe('req-1')
    // After a mutation, get and has answer from the mutated headers.
    request.headers.set('accept', 'text/csv')
    request.headers.delete('cookie')
    expect(request.headers.get('accept')).toBe('text/csv')
    expect(request.headers.has('cookie')).toBe(false)
    expect(request.headers.getSetCookie()).toEqual([])
  })

  it('leave HTTP/2 pseudo-headers out', () => {
    const raw = [':method', 'GET', ':path', '/x', ':authority', 'example.test', 'accept', '*/*']
    const request = requestWith(raw)
    expect(request.headers.get('accept')).toBe('*/*')
    expect([...request.headers]).toEqual([['accept', '*/*']])
  })
})
