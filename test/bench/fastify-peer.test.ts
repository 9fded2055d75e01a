/**
 * The http bench's Fastify peer does the API's work for `GET /tickets`, or its ratio means nothing:
 * the bench's parity check (run before every measured run) passes on the peer, and fails on a peer
 * that leaves out or changes what the API answers.
 */
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createFastifyPeer } from '../../bench/fastify-server.js'
import { BASE_PATH, benchRateLimiter, checkParity, resolveKey, setup } from '../../bench/http.js'

type Peer = ReturnType<typeof createFastifyPeer>
const started: Peer[] = []

/** The peer on the bench's seed, beside the library's handler on the same seed. */
async function startPeer(alter?: (app: Peer) => void) {
  const { store } = await setup()
  const { api } = await setup()
  const app = createFastifyPeer({ store, resolveKey, rateLimiter: benchRateLimiter(), basePath: BASE_PATH })
  alter?.(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  started.push(app)
  return { api, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((app) => app.close()))
})

describe('the Fastify peer of the http bench', () => {
  it('answers every parity case as the API does, cursor pages and their Link included', async () => {
    const { api, origin } = await startPeer()
    await expect(checkParity('fastify', origin, api)).resolves.toBeUndefined()
  })

  it('fails the parity check without the Link header', async () => {
    const { api, origin } = await startPeer((app) =>
      app.addHook('onSend', async (_request, reply) => void reply.removeHeader('link')),
    )
    await expect(checkParity('fastify', origin, api)).rejects.toThrow(/headers/)
  })

  it('fails the parity check on a header value or an error code of its own', async () => {
    const changed = await startPeer((app) =>
      app.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'private')),
    )
    await expect(checkParity('fastify', changed.origin, changed.api)).rejects.toThrow(/cache-control: private/)
    const recoded = await startPeer((app) =>
      app.addHook('onSend', async (_request, reply, payload) =>
        reply.statusCode === 400 ? String(payload).replace('VALIDATION_ERROR', 'BAD_REQUEST') : payload,
      ),
    )
    await expect(checkParity('fastify', recoded.origin, recoded.api)).rejects.toThrow(/BAD_REQUEST/)
  })
})
