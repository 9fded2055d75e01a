/**
 * Signing a delivery (docs/extensions.md section 4) with the Standard Webhooks reference library,
 * not by hand: one `v1,<base64 HMAC-SHA256>` entry per secret that signs now, space-separated, so
 * that during a rotation receivers holding either the old or the new secret verify it.
 */
import { Webhook } from 'standardwebhooks'

/**
 * The headers of a delivery of `body` (the event's JSON), for event `id` at `timestamp`.
 *
 * @example
 * const headers = webhookHeaders({ id: event.id, body, secrets: signingSecrets(endpoint, now), timestamp: now })
 */
export function webhookHeaders(input: {
  id: string
  body: string
  secrets: readonly string[]
  timestamp: Date
}): Record<string, string> {
  if (input.secrets.length === 0) throw new TypeError('A delivery needs at least one signing secret')
  return {
    'content-type': 'application/json',
    'webhook-id': input.id,
    'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
    'webhook-signature': input.secrets
      .map((secret) => new Webhook(secret).sign(input.id, input.timestamp, input.body))
      .join(' '),
  }
}
