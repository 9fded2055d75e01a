import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { isForbiddenAddress, SPECIAL_PURPOSE_BLOCKS, webhookUrlProblem } from '../../src/model/webhook-urls.js'
import {
  createWebhookConnectionPool,
  postWebhook,
  resolveSafeAddress,
  type UnsafeWebhookUrlError,
  type WebhookConnectionPool,
  type WebhookResolver,
} from '../../src/webhooks/url-safety.js'

const FORBIDDEN: Record<string, string[]> = {
  loopback: ['127.0.0.1', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1'],
  private: ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.1.1'],
  'link-local': ['169.254.169.254', '169.254.0.1', 'fe80::1', 'febf::1', 'fe80::1%eth0'],
  'carrier-grade NAT': ['100.64.0.1', '100.127.255.255'],
  'unique-local': ['fc00::1', 'fd12:3456::1'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1'],
  unspecified: ['0.0.0.0', '::', '0.1.2.3'],
  reserved: ['240.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.0.8', '2001:db8::1'],
  'v4-mapped v6': ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::ffff:192.168.0.1', '::10.0.0.1'],
  NAT64: ['64:ff9b::10.0.0.1', '64:ff9b::7f00:1', '64:ff9b:1::7f00:1', '64:ff9b:1::8.8.8.8'],
  // Accepted until every special-purpose block counted (issue 19).
  'IPv4-translated': ['::ffff:0:127.0.0.1', '::ffff:0:10.0.0.1', '::ffff:0:7f00:1'],
  '6to4': ['2002:7f00:1::', '2002:808:808::1', '2002::'],
  Teredo: ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'site-local': ['fec0::1', 'feff:ffff::1'],
  documentation: ['192.0.2.1', '198.51.100.7', '203.0.113.255', '3fff::1', '2001:db8::1'],
  'other special-purpose': [
    '192.31.196.1',
    '192.52.193.1',
    '192.88.99.1',
    '192.175.48.1',
    '100::1',
    '2001:1::1',
    '2001:1ff::1',
    '2620:4f:8000::1',
    '5f00::1',
  ],
  'not an address': ['', 'example.com', '1.2.3', '1.2.3.256', '1::2::3', 'g::1'],
}
const ALLOWED = [
  '93.184.216.34',
  '8.8.8.8',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.255.255',
  '2606:4700::1111',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2a00:1450:4001::200e',
  '2001:200::1',
  '2003::1',
  '192.0.3.1',
  '192.88.100.1',
  '2620:4f:8001::1',
]

describe('isForbiddenAddress', () => {
  for (const [kind, addresses] of Object.entries(FORBIDDEN)) {
    it(`refuses ${kind} addresses`, () => {
      for (const address of addresses) expect(isForbiddenAddress(address), address).toBe(true)
    })
  }
  it('allows public addresses, v4 and v6, next to the forbidden networks', () => {
    for (const address of ALLOWED) expect(isForbiddenAddress(address), address).toBe(false)
  })
  it('refuses the first and last address of every block of the table; IPv4-embedding ones by their IPv4', () => {
    for (const { block, embedsV4 } of SPECIAL_PURPOSE_BLOCKS) {
      const [first, last] = ends(block)
      if (embedsV4 === true) {
        // The IPv4 address in the last 32 bits decides: 127.0.0.1 is refused, 8.8.8.8 allowed.
        const prefix = first.split(':').slice(0, 6).join(':')
        expect(isForbiddenAddress(`${prefix}:7f00:1`), block).toBe(true)
        expect(isForbiddenAddress(`${prefix}:808:808`), block).toBe(false)
      } else {
        expect(isForbiddenAddress(first), `${block}: ${first}`).toBe(true)
        expect(isForbiddenAddress(last), `${block}: ${last}`).toBe(true)
      }
    }
  })
  it('docs/webhooks.md lists every block of the table', () => {
    const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8')
    for (const { block } of SPECIAL_PURPOSE_BLOCKS) expect(doc, block).toContain(`\`${block}\``)
  })
})

/** The first and last address of a block, written out in full. */
function ends(block: string): [string, string] {
  const [base, bits] = block.split('/') as [string, string]
  const v4 = !base.includes(':')
  const width = v4 ? 32 : 128
  const value = v4
    ? base.split('.').reduce((n, part) => n * 256n + BigInt(part), 0n)
    : BigInt(`0x${fullV6(base).replaceAll(':', '')}`)
  const hostBits = BigInt(width - Number(bits))
  const first = (value >> hostBits) << hostBits
  const last = first | ((1n << hostBits) - 1n)
  const write = (n: bigint) =>
    v4
      ? [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join('.')
      : Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':')
  return [write(first), write(last)]
}

/** An IPv6 address with its `::` expanded, eight groups of four digits. */
function fullV6(address: string): string {
  const [head, tail = ''] = address.split('::') as [string, string?]
  const groups = (text: string) => (text === '' ? [] : text.split(':'))
  const missing = 8 - groups(head).length - groups(tail).length
  return [...groups(head), ...Array<string>(missing).fill('0'), ...groups(tail)]
    .map((group) => group.padStart(4, '0'))
    .join(':')
}

describe('webhookUrlProblem (create and update)', () => {
  it('accepts an https URL with a public host', () => {
    expect(webhookUrlProblem('https://hooks.example.com/in?x=1', false)).toBeNull()
    expect(webhookUrlProblem('https://93.184.216.34:8443/in', false)).toBeNull()
  })
  it('refuses other schemes, credentials, fragments, non-URLs and more than 2048 characters', () => {
    expect(webhookUrlProblem('http://hooks.example.com/in', false)).toBe(
      'Must be an https URL (unless allowInsecureUrls is set)',
    )
    expect(webhookUrlProblem('ftp://hooks.example.com/in', true)).toBe('Must be an http(s) URL')
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', false)).toBe('Must not contain credentials')
    expect(webhookUrlProblem('https://user@hooks.example.com/', false)).toBe('Must not contain credentials')
    expect(webhookUrlProblem('https://hooks.example.com/#x', false)).toBe('Must not contain a fragment')
    expect(webhookUrlProblem('hooks.example.com/in', false)).toBe('Must be an absolute URL')
    const long = `https://hooks.example.com/${'a'.repeat(2048 - 26)}`
    expect(long.length).toBe(2048)
    expect(webhookUrlProblem(long, false)).toBeNull()
    expect(webhookUrlProblem(`${long}a`, false)).toBe('Must be at most 2048 characters')
  })
  it('refuses literal forbidden addresses and localhost unless insecure URLs are allowed', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:169.254.169.254]/',
      'https://10.1.2.3/',
      'https://localhost/',
      'https://a.localhost/',
      'https://0x7f000001/',
      'https://2130706433/',
      // Accepted until every special-purpose block counted, and `localhost.` was localhost (issue 19).
      'https://[::ffff:0:127.0.0.1]/',
      'https://[64:ff9b:1::7f00:1]/',
      'https://[2002:7f00:1::]/',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'https://[fec0::1]/',
      'https://192.0.2.10/',
      'https://localhost./',
      'https://LocalHost./in',
      'https://a.localhost./',
      'https://localhost../',
    ]) {
      expect(webhookUrlProblem(url, false), url).toMatch(/^Must not name/)
      expect(webhookUrlProblem(url, true), url).toBeNull()
    }
    expect(webhookUrlProblem('http://127.0.0.1:8080/', true)).toBeNull()
  })
})

const resolverOf =
  (table: Record<string, string[]>): WebhookResolver =>
  async (host) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

describe('resolveSafeAddress (every delivery)', () => {
  it('refuses a host name that resolves to a forbidden address, in any position', async () => {
    const resolver = resolverOf({
      'internal.example': ['10.0.0.7'],
      'mixed.example': ['93.184.216.34', '169.254.169.254'],
      'v6.example': ['fd00::1'],
      'mapped.example': ['::ffff:127.0.0.1'],
      'sixtofour.example': ['2606:4700::1111', '2002:7f00:1::'],
      'teredo.example': ['2001::1'],
      'translated.example': ['::ffff:0:127.0.0.1'],
      'docs.example': ['192.0.2.1'],
      'empty.example': [],
    })
    for (const host of [
      'internal.example',
      'mixed.example',
      'v6.example',
      'mapped.example',
      'sixtofour.example',
      'teredo.example',
      'translated.example',
      'docs.example',
    ]) {
      await expect(resolveSafeAddress(new URL(`https://${host}/`), { resolver }), host).rejects.toThrow(
        `${host}: no public address`,
      )
    }
    await expect(resolveSafeAddress(new URL('https://empty.example/'), { resolver })).rejects.toThrow(
      'empty.example: no public address',
    )
  })
  it('names the host, never the address nor whether the name exists; the error’s detail says which', async () => {
    const resolver: WebhookResolver = async (host) => {
      if (host === 'db.internal-corp.test') return [{ address: '10.20.30.40', family: 4 }]
      throw new Error(`getaddrinfo ENOTFOUND ${host}`)
    }
    const refusals = await Promise.all(
      ['db.internal-corp.test', 'nothing.internal-corp.test'].map((host) =>
        resolveSafeAddress(new URL(`https://${host}/`), { resolver }).then(
          () => expect.fail(host),
          (error: unknown) => error as UnsafeWebhookUrlError,
        ),
      ),
    )
    expect(refusals.map((error) => error.message)).toEqual([
      'db.internal-corp.test: no public address',
      'nothing.internal-corp.test: no public address',
    ])
    expect(refusals.map((error) => error.detail)).toEqual([
      'resolves to 10.20.30.40',
      'getaddrinfo ENOTFOUND nothing.internal-corp.test',
    ])
    const posted = await postWebhook('https://db.internal-corp.test/in', '{}', {}, { resolver })
    expect(posted.error).toBe('db.internal-corp.test: no public address')
  })
  it('returns the checked address of a public host', async () => {
    const resolver = resolverOf({ 'hooks.example': ['93.184.216.34', '2606:4700::1111'] })
    await expect(resolveSafeAddress(new URL('https://hooks.example/'), { resolver })).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    })
  })
})

describe('postWebhook', () => {
  let server: Server
  let port: number
  /** TCP connections the receiver accepted. */
  let connections = 0
  const seen: { url: string; headers: IncomingMessage['headers']; body: string }[] = []
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        seen.push({ url: request.url ?? '', headers: request.headers, body })
        if (request.url === '/redirect') {
          response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end()
        } else if (request.url === '/big') {
          response.writeHead(200).end('x'.repeat(100_000))
        } else if (request.url === '/slow') {
          setTimeout(() => response.writeHead(200).end('late'), 2_000)
        } else if (request.url === '/fail') {
          response.writeHead(500).end('nope')
        } else response.writeHead(204).end()
      })
    })
    server.on('connection', () => (connections += 1))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )

  it('refuses a private receiver without connecting unless insecure URLs are allowed', async () => {
    const before = seen.length
    const refused = await postWebhook(`http://127.0.0.1:${port}/ok`, '{}', {})
    expect(refused).toMatchObject({
      responseStatus: null,
      error: `127.0.0.1:${port}: URL not allowed: Must be an https URL (unless allowInsecureUrls is set)`,
    })
    const named = await postWebhook(
      `https://receiver.example:${port}/ok`,
      '{}',
      {},
      { resolver: resolverOf({ 'receiver.example': ['127.0.0.1'] }) },
    )
    expect(named.error).toBe(`receiver.example:${port}: no public address`)
    expect(seen.length).toBe(before)
    const allowed = await postWebhook(
      `http://127.0.0.1:${port}/ok`,
      '{"a":1}',
      { 'content-type': 'application/json' },
      { allowInsecureUrls: true },
    )
    expect(allowed).toMatchObject({ responseStatus: 204, error: null })
    expect(seen.at(-1)).toMatchObject({ url: '/ok', body: '{"a":1}' })
  })

  it('connects to the address the resolver gave, with the URL host in the Host header', async () => {
    let calls = 0
    const resolver: WebhookResolver = async () => {
      calls += 1
      return [{ address: '127.0.0.1', family: 4 }]
    }
    const result = await postWebhook(
      `http://pinned.example:${port}/ok`,
      '{}',
      {},
      { allowInsecureUrls: true, resolver },
    )
    expect(result).toMatchObject({ responseStatus: 204, error: null })
    expect(calls).toBe(1) // the socket's lookup did not ask DNS again
    expect(seen.at(-1)?.headers.host).toBe(`pinned.example:${port}`)
  })

  it('a connection error names the URL’s host, not the address it resolved to', async () => {
    const closed = createNetServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const result = await postWebhook(
      `http://db.internal-corp.test:${closedPort}/in`,
      '{}',
      {},
      { allowInsecureUrls: true, resolver: resolverOf({ 'db.internal-corp.test': ['127.0.0.1'] }) },
    )
    expect(result.error).toBe(`db.internal-corp.test:${closedPort}: connection refused`)
  })

  it('does not follow a redirect (to a forbidden address): a 3xx is a failed attempt', async () => {
    const before = seen.length
    const result = await postWebhook(`http://127.0.0.1:${port}/redirect`, '{}', {}, { allowInsecureUrls: true })
    expect(result).toMatchObject({ responseStatus: 302, error: `127.0.0.1:${port}: status 302` })
    expect(seen.length).toBe(before + 1)
  })

  it('reads at most 4 KiB of an answer, reports non-2xx and times out a slow receiver', async () => {
    const big = await postWebhook(`http://127.0.0.1:${port}/big`, '{}', {}, { allowInsecureUrls: true })
    expect(big).toMatchObject({ responseStatus: 200, error: null })
    expect(big.responseBody.length).toBe(4096)
    const failed = await postWebhook(`http://127.0.0.1:${port}/fail`, '{}', {}, { allowInsecureUrls: true })
    expect(failed).toMatchObject({ responseStatus: 500, responseBody: 'nope', error: `127.0.0.1:${port}: status 500` })
    const slow = await postWebhook(
      `http://127.0.0.1:${port}/slow`,
      '{}',
      {},
      { allowInsecureUrls: true, timeoutMs: 300 },
    )
    expect(slow).toMatchObject({
      responseStatus: null,
      error: `127.0.0.1:${port}: timed out awaiting the answer after 300 ms`,
    })
    expect(slow.durationMs).toBeLessThan(1_500)
  })

  it('times out a connection whose TLS handshake never completes', async () => {
    const silent = createNetServer(() => {}) // accepts TCP, never speaks TLS
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const silentPort = (silent.address() as AddressInfo).port
    try {
      const result = await postWebhook(
        `https://127.0.0.1:${silentPort}/`,
        '{}',
        {},
        { allowInsecureUrls: true, connectTimeoutMs: 200 },
      )
      expect(result).toMatchObject({
        responseStatus: null,
        error: `127.0.0.1:${silentPort}: timed out connecting after 200 ms`,
      })
      expect(result.durationMs).toBeLessThan(1_500)
    } finally {
      silent.close()
    }
  })

  describe('with a connection pool', () => {
    let pool: WebhookConnectionPool
    beforeAll(() => {
      pool = createWebhookConnectionPool({ socketsPerAgent: 4 })
    })
    afterAll(() => pool.close())
    const insecure = () => ({ allowInsecureUrls: true, pool })

    it('reuses a connection per checked address: three attempts, one connection', async () => {
      const before = connections
      for (let i = 0; i < 3; i++)
        expect(await postWebhook(`http://127.0.0.1:${port}/ok`, '{}', {}, insecure())).toMatchObject({ error: null })
      expect(connections - before, 'connections accepted').toBe(1)
      expect(pool.idleSockets()).toBe(1)
    })

    it('destroys a socket whose answer was cut at 4 KiB, and one that timed out', async () => {
      expect(pool.idleSockets(), 'kept by the test above').toBe(1)
      const big = await postWebhook(`http://127.0.0.1:${port}/big`, '{}', {}, insecure())
      expect(big.responseBody.length).toBe(4096)
      expect(pool.idleSockets(), 'after the cut answer').toBe(0)
      const slow = await postWebhook(`http://127.0.0.1:${port}/slow`, '{}', {}, { ...insecure(), timeoutMs: 300 })
      expect(slow.error).toBe(`127.0.0.1:${port}: timed out awaiting the answer after 300 ms`)
      expect(pool.idleSockets(), 'after the timeout').toBe(0)
      const before = connections
      expect(await postWebhook(`http://127.0.0.1:${port}/ok`, '{}', {}, insecure())).toMatchObject({ error: null })
      expect(connections - before, 'a new connection').toBe(1)
      expect(pool.idleSockets()).toBe(1)
    })

    it('a changed DNS answer gets a new connection, to the newly checked address', async () => {
      // The same port on two loopback addresses: which one a connection reached is what it proves.
      const reached: string[] = []
      const handler = (request: IncomingMessage, response: ServerResponse) => {
        request.resume()
        request.on('end', () => response.writeHead(204).end())
      }
      const first = createServer(handler)
      await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve))
      const shared = (first.address() as AddressInfo).port
      const second = createServer(handler)
      await new Promise<void>((resolve) => second.listen(shared, '127.0.0.2', resolve))
      for (const s of [first, second]) s.on('connection', (socket) => reached.push(socket.localAddress ?? ''))
      let answer = '127.0.0.1'
      const resolver: WebhookResolver = async () => [{ address: answer, family: 4 }]
      const url = `http://rebind.example:${shared}/in`
      try {
        for (const address of ['127.0.0.1', '127.0.0.1', '127.0.0.2', '127.0.0.2']) {
          answer = address
          expect(await postWebhook(url, '{}', {}, { ...insecure(), resolver })).toMatchObject({ error: null })
        }
        expect(reached, 'one connection per checked address, each to that address').toEqual(['127.0.0.1', '127.0.0.2'])
      } finally {
        for (const s of [first, second]) {
          s.closeAllConnections()
          s.close()
        }
      }
    })

    it('a private answer is refused before the pool is asked for a connection', async () => {
      let acquired = 0
      const counting: WebhookConnectionPool = {
        ...pool,
        acquire: (url, pinned) => {
          acquired += 1
          return pool.acquire(url, pinned)
        },
      }
      const before = connections
      const result = await postWebhook(
        `https://hooks.example:${port}/ok`,
        '{}',
        {},
        {
          pool: counting,
          resolver: resolverOf({ 'hooks.example': ['93.184.216.34', '10.0.0.7'] }),
        },
      )
      expect(result.error).toBe(`hooks.example:${port}: no public address`)
      expect(acquired, 'pool.acquire calls').toBe(0)
      expect(connections).toBe(before)
    })

    it('close() destroys the idle sockets: the receiver sees them close', async () => {
      const own = createWebhookConnectionPool()
      const closed = new Promise<void>((resolve) =>
        server.once('connection', (socket) => socket.once('close', resolve)),
      )
      await postWebhook(`http://127.0.0.1:${port}/ok`, '{}', {}, { allowInsecureUrls: true, pool: own })
      expect(own.idleSockets()).toBe(1)
      own.close()
      await closed
      expect(own.idleSockets()).toBe(0)
    })

    it('retries once on a new connection when a kept one is closed as it is reused', async () => {
      // A receiver that closes a connection on its second request, as one whose idle timeout fired.
      const requestsOn = new WeakMap<object, number>()
      let received = 0
      const closing = createServer((request, response) => {
        received += 1
        const count = (requestsOn.get(request.socket) ?? 0) + 1
        requestsOn.set(request.socket, count)
        if (count > 1) return void request.socket.destroy()
        request.resume()
        request.on('end', () => response.writeHead(204).end())
      })
      let accepted = 0
      closing.on('connection', () => (accepted += 1))
      await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve))
      const url = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/in`
      const own = createWebhookConnectionPool()
      try {
        for (let i = 0; i < 2; i++)
          expect(await postWebhook(url, '{}', {}, { allowInsecureUrls: true, pool: own })).toMatchObject({
            responseStatus: 204,
            error: null,
          })
        expect(
          { received, accepted },
          'the second attempt: cut on the kept connection, then sent on a new one',
        ).toEqual({
          received: 3,
          accepted: 2,
        })
      } finally {
        own.close()
        closing.closeAllConnections()
        closing.close()
      }
    })

    it('keeps at most maxAgents agents: the least recently used idle one is dropped', async () => {
      const small = createWebhookConnectionPool({ maxAgents: 1 })
      try {
        const resolver: WebhookResolver = async () => [{ address: '127.0.0.1', family: 4 }]
        for (const host of ['a.example', 'b.example'])
          await postWebhook(`http://${host}:${port}/ok`, '{}', {}, { allowInsecureUrls: true, resolver, pool: small })
        expect(small.idleSockets(), 'only the last agent kept').toBe(1)
        const held = small.acquire(new URL(`http://c.example:${port}/`), { address: '127.0.0.1', family: 4 })
        expect(held).toBeDefined()
        expect(small.acquire(new URL(`http://d.example:${port}/`), { address: '127.0.0.1', family: 4 })).toBeUndefined()
        held?.release()
      } finally {
        small.close()
      }
    })
  })
})
