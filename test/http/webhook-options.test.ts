import { describe, expect, it } from 'vitest'
import { setup } from './fixture.js'
import type { Reply } from 'tenant-public-api/testing'

const create = (url: string) => ({ body: { url, events: ['ticket.created'] } })

describe('createPublicApi({ webhooks })', () => {
  it('refuses http and private webhook URLs by default', async () => {
    const { h } = await setup()
    for (const url of ['http://hooks.example.com/in', 'https://127.0.0.1:8443/in', 'https://[::1]/in']) {
      const result = await h.call<Reply<'createWebhookEndpoint'>>('POST', '/webhook-endpoints', create(url))
      expect(result.status, url).toBe(400)
      // The message names the option that lifts the refusal (docs/webhooks.md, local receivers).
      expect(result.body.details).toEqual([
        { in: 'body', path: 'url', message: expect.stringContaining('unless allowInsecureUrls is set') },
      ])
    }
  })

  it('allowInsecureUrls: true accepts them (development), still only http(s) without credentials', async () => {
    const { h } = await setup({ webhooks: { allowInsecureUrls: true } })
    for (const url of ['http://127.0.0.1:4000/', 'https://localhost/in', 'http://10.0.0.5/in']) {
      expect((await h.call('POST', '/webhook-endpoints', create(url))).status, url).toBe(201)
    }
    for (const url of ['ftp://127.0.0.1/', 'http://user:pw@127.0.0.1/']) {
      expect((await h.call('POST', '/webhook-endpoints', create(url))).status, url).toBe(400)
    }
  })
})
