/**
 * A webhook receiver: verifies each delivery with `verifyWebhook` and prints its event as one JSON
 * line. Deliveries are at least once, so it answers a repeated `webhook-id` 204 without printing it
 * again. `WEBHOOK_SECRET` (the `whsec_...` that POST /webhook-endpoints answered) is required;
 * PORT (default 4000, 0 picks a free one) and HOST (default 127.0.0.1) set the address.
 *
 * A standalone app (docs/mounts.md, "Examples"): npm install, then `WEBHOOK_SECRET=whsec_... npm start`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verifyWebhook, WebhookVerificationError } from 'tenant-public-api/client'

const secret = process.env.WEBHOOK_SECRET
if (!secret?.startsWith('whsec_')) {
  console.error('Set WEBHOOK_SECRET to the whsec_... secret of your webhook endpoint')
  process.exit(1)
}
/** Ids already printed; a real receiver keeps these in its database, for longer than retries last. */
const seen = new Set<string>()
const MAX_BODY_BYTES = 1024 * 1024

const server = createServer((request, response) => {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end()
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  request.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > MAX_BODY_BYTES) request.destroy()
    else chunks.push(chunk)
  })
  request.on('end', () => {
    try {
      const event = verifyWebhook(secret, request.headers, Buffer.concat(chunks))
      if (!seen.has(event.id)) {
        seen.add(event.id)
        console.log(JSON.stringify({ received: event.id, type: event.type, resource: event.resource }))
      }
      response.writeHead(204).end()
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error
      console.log(JSON.stringify({ rejected: error.message }))
      response.writeHead(400, { 'content-type': 'text/plain' }).end('invalid signature')
    }
  })
})

server.listen(Number(process.env.PORT ?? 4000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address() as AddressInfo
  console.log(`webhook receiver listening on http://${address}:${port}/`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
