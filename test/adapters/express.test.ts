import { once } from 'node:events'
import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express5 from 'express'
// @ts-expect-error express4 is the npm alias of express@4 and ships no types; it is called as Express 5's are.
import express4 from 'express4'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore, createPublicApi, type PublicApiHandler } from 'tenant-public-api'
import { clientAddress, toExpressMiddleware } from 'tenant-public-api/express'
import { testKey, testKeyResolver } from 'tenant-public-api/testing'
import {
  mountSeed,
  printedKey,
  runMountScenario,
  startRepositoryExample,
  TENANT,
  type ServedProcess,
} from './support.js'

const token = testKey(TENANT)
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
const rule = {
  name: 'Parsed first',
  triggerType: 'scheduled',
  triggerConfig: { cron: '0 * * * *' },
  entityType: 'ticket',
  conditions: [],
  actions: [],
}

type ExpressFactory = typeof express5

for (const [label, express] of [
  ['Express 5', express5],
  ['Express 4', express4 as unknown as ExpressFactory],
] as const) {
  describe(`${label} mount (toExpressMiddleware)`, () => {
    const aborted: string[] = []
    const addresses: Array<string | undefined> = []
    const servers: Server[] = []
    const origins: Record<'unparsed' | 'parsed', string> = { unparsed: '', parsed: '' }

    async function serve(app: ReturnType<ExpressFactory>): Promise<string> {
      const server = app.listen(0, '127.0.0.1')
      servers.push(server)
      await once(server, 'listening')
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    }

    beforeAll(async () => {
      const store = createMemoryStore()
      await store.seed(TENANT, mountSeed())
      const api = createPublicApi({ store, keyResolver: testKeyResolver(), onError: () => {} })
      const observed: PublicApiHandler = (request) => {
        addresses.push(clientAddress(request))
        request.signal.addEventListener('abort', () => aborted.push(request.url))
        return api(request)
      }

      // The API mounted first: it reads the stream itself.
      const unparsed = express()
      unparsed.use(toExpressMiddleware(observed))
      unparsed.get('/health', (_req, res) => void res.send('host route'))
      origins.unparsed = await serve(unparsed)

      // express.json() ran first: the API gets the parsed body, and the parser's errors in our shape.
      const parsed = express()
      parsed.use(express.json()) // its default limit is 100 kB
      parsed.use(toExpressMiddleware(observed))
      origins.parsed = await serve(parsed)
    })
    afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))))

    it('serves the scenario with the stream unread, and a client abort fires request.signal', async () => {
      await runMountScenario(`${origins.unparsed}/api/public/v1`, token)
      expect(aborted).toContain(`${origins.unparsed}/api/public/v1/automation`)
      expect(addresses).toContain('127.0.0.1')
    })

    it('serves the scenario after express.json() has parsed the body', async () => {
      await runMountScenario(`${origins.parsed}/api/public/v1`, token)
    })

    it('uses a body that express.json() already parsed, never an empty one', async () => {
      const response = await fetch(`${origins.parsed}/api/public/v1/automation`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(rule),
      })
      expect(response.status).toBe(201)
      expect(((await response.json()) as { data: { triggerConfig: unknown } }).data.triggerConfig).toEqual(
        rule.triggerConfig,
      )
      const unknownField = await fetch(`${origins.parsed}/api/public/v1/automation`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ ...rule, extra: 1 }),
      })
      expect(unknownField.status).toBe(400)
      expect(((await unknownField.json()) as { code: string }).code).toBe('VALIDATION_ERROR')
    })

    it('answers body-parser errors in the JSON Error shape, not HTML', async () => {
      const broken = await fetch(`${origins.parsed}/api/public/v1/automation`, {
        method: 'POST',
        headers: { ...auth, 'x-request-id': 'bp-1' },
        body: '{"name":',
      })
      expect(broken.status).toBe(400)
      expect(broken.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await broken.json()).toMatchObject({ code: 'INVALID_JSON', requestId: 'bp-1' })
      const tooLarge = await fetch(`${origins.parsed}/api/public/v1/automation`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ ...rule, description: 'x'.repeat(200_000) }),
      })
      expect(tooLarge.status).toBe(413)
      expect(((await tooLarge.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
    })

    it('answers a bad Host in the Error shape, with the client request id', async () => {
      const { status, body, requestId } = await new Promise<{ status: number; body: string; requestId: unknown }>(
        (resolve, reject) => {
          const headers = { host: 'bad host/x', 'x-request-id': 'req-host-2' }
          const req = httpRequest(`${origins.unparsed}/api/public/v1/tickets`, { headers }, (res) => {
            let text = ''
            res.on('data', (chunk: Buffer) => (text += chunk.toString()))
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, body: text, requestId: res.headers['x-request-id'] }),
            )
          })
          req.on('error', reject)
          req.end()
        },
      )
      expect(status).toBe(400)
      expect(requestId).toBe('req-host-2')
      expect(JSON.parse(body)).toMatchObject({ error: 'Invalid Host header', code: 'VALIDATION_ERROR', requestId })
    })

    it('passes requests outside the base path on to the host app', async () => {
      const response = await fetch(`${origins.unparsed}/health`)
      expect(await response.text()).toBe('host route')
      const sibling = await fetch(`${origins.unparsed}/api/public/v10/tickets`)
      expect(sibling.status).toBe(404)
      expect(sibling.headers.get('content-type')).not.toMatch(/json/)
    })
  })
}

describe('examples/express, as its one command runs it', () => {
  let served: ServedProcess
  let base = ''
  beforeAll(async () => {
    ;({ base, served } = await startRepositoryExample('express'))
  }, 60_000)
  afterAll(() => served?.stop())

  it('serves the scenario behind express.json()', async () => {
    await runMountScenario(base, await printedKey(served))
    expect(served.output()).toContain('Express: ')
  })
})
