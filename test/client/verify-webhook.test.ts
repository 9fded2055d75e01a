import { describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { verifyWebhook, WebhookVerificationError } from 'tenant-public-api/client'
import { newWebhookSecret } from '../../src/model/webhook-endpoints.js'
import { webhookHeaders } from '../../src/webhooks/signing.js'

const secret = newWebhookSecret()
const event = {
  id: 'evt_1',
  type: 'budget.updated',
  createdAt: '2024-05-01T10:00:00.000Z',
  resource: { type: 'budget', id: 'b1' },
  data: { object: { id: 'b1' }, previous: { title: 'Old' } },
  actor: { type: 'api_key', keyId: 'k1', id: 'u1', name: 'Ada' },
  requestId: 'req-1',
}
const body = JSON.stringify(event)

describe('verifyWebhook', () => {
  it('returns the event from Fetch Headers, Node headers (any case) and bytes', () => {
    const headers = webhookHeaders({ id: event.id, body, secrets: [secret], timestamp: new Date() })
    expect(verifyWebhook(secret, new Headers(headers), body)).toEqual(event)
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]))
    expect(verifyWebhook(secret, upper, new TextEncoder().encode(body))).toEqual(event)
  })

  it('verifies with either secret while two sign, and with standardwebhooks’ own verify', () => {
    const next = newWebhookSecret()
    const headers = webhookHeaders({ id: event.id, body, secrets: [next, secret], timestamp: new Date() })
    expect(verifyWebhook(secret, headers, body)).toEqual(event)
    expect(verifyWebhook(next, headers, body)).toEqual(event)
    expect(new Webhook(secret).verify(body, headers)).toEqual(event)
    expect(new Webhook(next).verify(body, headers)).toEqual(event)
  })

  it('throws WebhookVerificationError for a wrong secret, a forged body, or a body that is no event', () => {
    const headers = webhookHeaders({ id: event.id, body, secrets: [secret], timestamp: new Date() })
    expect(() => verifyWebhook(newWebhookSecret(), headers, body)).toThrow(WebhookVerificationError)
    expect(() => verifyWebhook(secret, headers, `${body} `)).toThrow('No matching signature found')
    const odd = JSON.stringify([1, 2])
    const signed = webhookHeaders({ id: 'x', body: odd, secrets: [secret], timestamp: new Date() })
    expect(() => verifyWebhook(secret, signed, odd)).toThrow('The body is not an event')
    expect(() => webhookHeaders({ id: 'x', body: odd, secrets: [], timestamp: new Date() })).toThrow(TypeError)
  })
})
