/**
 * Verifying a webhook delivery on the receiving side (docs/extensions.md section 4), with the
 * Standard Webhooks reference library rather than by hand: it checks the HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` against every `v1,` entry of `webhook-signature` in
 * constant time, and refuses timestamps more than 5 minutes off (replays). Pure JavaScript, so it
 * runs wherever the client does.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks'

export { WebhookVerificationError }

/**
 * An event as a webhook delivers it: the events feed's Event (docs/extensions.md section 3).
 *
 * @example
 * const event: WebhookEvent = verifyWebhook(secret, request.headers, body)
 */
export interface WebhookEvent {
  id: string
  type: string
  createdAt: string
  resource: { type: string; id: string }
  data: { object: Record<string, unknown> | null; previous: Record<string, unknown> | null }
  actor: { type: 'api_key'; keyId: string; id: string; name: string } | { type: 'sync' }
  requestId: string | null
}

/** Request headers as a Fetch `Headers`, or as Node's `IncomingHttpHeaders` (and Express's). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

/**
 * Verifies a delivery and returns its event; throws a `WebhookVerificationError` when the
 * signature does not match `secret` (`whsec_...`), a `webhook-*` header is missing, or the
 * timestamp is more than 5 minutes off. Pass the body exactly as received (text or bytes): a
 * re-serialised object would not match the signature. Receivers deduplicate by `event.id`
 * (the `webhook-id`): delivery is at least once.
 *
 * @example
 * const event = verifyWebhook(process.env.WEBHOOK_SECRET!, request.headers, await request.text())
 * if (seen.has(event.id)) return new Response(null, { status: 204 })
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array): WebhookEvent {
  const flat: Record<string, string> = {}
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => {
      flat[name] = value
    })
  } else {
    for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value
    }
  }
  const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body)
  const event = new Webhook(secret).verify(text, flat) as WebhookEvent | undefined
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || typeof event.type !== 'string')
    throw new WebhookVerificationError('The body is not an event')
  return event
}
