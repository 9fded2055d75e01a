/**
 * What a failed attempt's `error` says (docs/webhooks.md, what a tenant sees): the URL's host and a
 * short reason from the error's code, never a library's message. Each reason a local server can
 * cause is caused for real; the codes no local server can cause (an expired or mismatched
 * certificate trusted by no one here, an unreachable network) are checked against the table.
 */
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer as createTlsServer } from 'node:tls'
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { failureReason, UNKNOWN_FAILURE } from '../../src/webhooks/attempt-failures.js'
import { postWebhook, type WebhookResolver } from '../../src/webhooks/url-safety.js'

const fixtures = join(import.meta.dirname, 'fixtures')
/** A certificate for 127.0.0.1 and receiver.example, signed by itself, valid until 2126. */
const selfSigned = {
  cert: readFileSync(join(fixtures, 'self-signed-cert.pem')),
  key: readFileSync(join(fixtures, 'self-signed-key.pem')),
}

/** What no tenant-visible error may hold: Node's and OpenSSL's words, files and codes. */
const INTERNALS = /ssl|\.c:|error:|routines|errno|syscall|econn|socket hang up|getaddrinfo|parse error|hpe_|cert_/i

const servers: (Server | HttpServer)[] = []
afterAll(() => {
  for (const server of servers) server.close()
})

/** Starts `server` on 127.0.0.1 and returns its port. */
async function listen(server: Server | HttpServer): Promise<number> {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Every socket a raw server accepts, so that the servers can close. */
function rawServer(onSocket: (socket: Socket) => void): Server {
  const server = createNetServer(onSocket)
  server.on('connection', (socket) => socket.on('error', () => {}))
  return server
}

/** POSTs to `url`, local receivers allowed, with short timeouts. */
const post = (url: string, resolver?: WebhookResolver) =>
  postWebhook(
    url,
    '{"id":"evt_1"}',
    { 'content-type': 'application/json' },
    {
      allowInsecureUrls: true,
      timeoutMs: 2_000,
      connectTimeoutMs: 1_000,
      ...(resolver === undefined ? {} : { resolver }),
    },
  )

describe('a failed attempt’s error: the host and a short reason', () => {
  it('TLS handshake failed: https spoken to a plain HTTP server', async () => {
    const port = await listen(createHttpServer((_request, response) => response.end('ok')))
    const result = await post(`https://127.0.0.1:${port}/in`)
    expect(result).toMatchObject({ responseStatus: null, error: `127.0.0.1:${port}: TLS handshake failed` })
    expect(result.error).not.toMatch(INTERNALS)
  })

  it('TLS handshake failed: a server that answers the hello with garbage', async () => {
    const port = await listen(rawServer((socket) => socket.once('data', () => socket.end('\u0015\u0003\u0001garbage'))))
    const result = await post(`https://127.0.0.1:${port}/in`)
    expect(result.error).toBe(`127.0.0.1:${port}: TLS handshake failed`)
  })

  it('TLS certificate not trusted: a self-signed certificate, named by the URL’s host', async () => {
    const port = await listen(createTlsServer(selfSigned, (socket) => socket.end()))
    const resolver: WebhookResolver = async () => [{ address: '127.0.0.1', family: 4 }]
    const result = await post(`https://receiver.example:${port}/in`, resolver)
    expect(result.error).toBe(`receiver.example:${port}: TLS certificate not trusted`)
    expect(result.error).not.toMatch(INTERNALS)
    expect(result.error).not.toContain('127.0.0.1')
  })

  it('connection refused: a closed port', async () => {
    const closed = createNetServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const result = await post(`http://127.0.0.1:${port}/in`)
    expect(result.error).toBe(`127.0.0.1:${port}: connection refused`)
  })

  it('connection reset: a server that drops the connection once the request came', async () => {
    const port = await listen(rawServer((socket) => socket.once('data', () => socket.resetAndDestroy())))
    expect((await post(`http://127.0.0.1:${port}/in`)).error).toBe(`127.0.0.1:${port}: connection reset`)
    const closing = await listen(rawServer((socket) => socket.once('data', () => socket.end())))
    expect((await post(`http://127.0.0.1:${closing}/in`)).error).toBe(`127.0.0.1:${closing}: connection reset`)
  })

  it('invalid HTTP response: a server that answers something else', async () => {
    const port = await listen(rawServer((socket) => socket.once('data', () => socket.end('hello there\r\n\r\n'))))
    const result = await post(`http://127.0.0.1:${port}/in`)
    expect(result.error).toBe(`127.0.0.1:${port}: invalid HTTP response`)
    expect(result.error).not.toMatch(INTERNALS)
  })

  it('timed out: a server that never answers, and a TLS handshake that never ends', async () => {
    const silent = await listen(rawServer(() => {}))
    const answer = await postWebhook(
      `http://127.0.0.1:${silent}/in`,
      '{}',
      {},
      {
        allowInsecureUrls: true,
        timeoutMs: 200,
      },
    )
    expect(answer.error).toBe(`127.0.0.1:${silent}: timed out awaiting the answer after 200 ms`)
    const handshake = await postWebhook(
      `https://127.0.0.1:${silent}/in`,
      '{}',
      {},
      {
        allowInsecureUrls: true,
        connectTimeoutMs: 200,
      },
    )
    expect(handshake.error).toBe(`127.0.0.1:${silent}: timed out connecting after 200 ms`)
  })

  it('status N: any answer but a 2xx, the default port left out of the host', async () => {
    const port = await listen(createHttpServer((_request, response) => response.writeHead(503).end('busy')))
    expect((await post(`http://127.0.0.1:${port}/in`)).error).toBe(`127.0.0.1:${port}: status 503`)
    // The port of the URL's scheme is not written: the host alone, as the URL has it.
    const resolver: WebhookResolver = async () => [{ address: '203.0.113.9', family: 4 }]
    const refused = await postWebhook('https://hooks.example:443/in', '{}', {}, { resolver })
    expect(refused.error).toBe('hooks.example: no public address')
  })

  it('no public address, too, when a resolver of the operator’s answers nonsense: its error is not shown', async () => {
    const broken = (async () => null) as unknown as WebhookResolver
    const result = await postWebhook('https://hooks.example/in', '{}', {}, { resolver: broken })
    expect(result).toMatchObject({ responseStatus: null, error: 'hooks.example: no public address' })
  })

  it('URL not allowed: a URL the dispatcher’s rules refuse, or none at all', async () => {
    expect((await postWebhook('http://hooks.example/in', '{}', {})).error).toBe(
      'hooks.example: URL not allowed: Must be an https URL (unless allowInsecureUrls is set)',
    )
    expect((await postWebhook('not a url', '{}', {})).error).toBe('URL not allowed: Must be an absolute URL')
  })
})

describe('failureReason: one table from error codes', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ECONNRESET', 'connection reset'],
    ['EPIPE', 'connection reset'],
    ['ETIMEDOUT', 'timed out connecting'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ENETUNREACH', 'network unreachable'],
    ['EPROTO', 'TLS handshake failed'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS handshake failed'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'TLS handshake failed'],
    ['ERR_TLS_HANDSHAKE_TIMEOUT', 'TLS handshake failed'],
    ['CERT_HAS_EXPIRED', 'TLS certificate expired'],
    ['CERT_NOT_YET_VALID', 'TLS certificate not yet valid'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS certificate does not match the host'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS certificate not trusted'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'TLS certificate not trusted'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'TLS certificate not trusted'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'TLS certificate not trusted'],
    ['CERT_REVOKED', 'TLS certificate revoked'],
    ['CERT_SIGNATURE_FAILURE', 'TLS certificate invalid'],
    ['HPE_INVALID_CONSTANT', 'invalid HTTP response'],
    ['HPE_HEADER_OVERFLOW', 'invalid HTTP response'],
  ])('%s is “%s”', (code, reason) => {
    expect(failureReason(Object.assign(new Error(`connect ${code} 10.1.2.3:443 ssl3_record.c:350`), { code }))).toBe(
      reason,
    )
  })

  it('anything else is “connection failed”, whatever its message says', () => {
    for (const error of [
      new Error('ssl3_record.c:350: wrong version number'),
      Object.assign(new Error('x'), { code: 'EWHATEVER' }),
      Object.assign(new Error('x'), { code: 'constructor' }),
      Object.assign(new Error('x'), { code: 'toString' }),
      Object.assign(new Error('x'), { code: 111 }),
      'ECONNREFUSED',
      null,
      undefined,
    ])
      expect(failureReason(error), String(error)).toBe(UNKNOWN_FAILURE)
    expect(UNKNOWN_FAILURE).toBe('connection failed')
  })
})
