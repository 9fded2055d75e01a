/**
 * examples/webhook-receiver as a user runs it: started with a secret, it accepts deliveries signed
 * by the library (also during a rotation, signed with two secrets), prints each event once,
 * refuses forged, tampered and stale ones, and verifies standardwebhooks' own signatures.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { newWebhookSecret } from '../../src/model/webhook-endpoints.js'
import { webhookHeaders } from '../../src/webhooks/signing.js'
import { postWebhook } from '../../src/webhooks/url-safety.js'
import { repositoryBuildConfigs } from '../support/example-apps.js'

const secret = newWebhookSecret()
let child: ChildProcess
let url = ''
let output = ''

function event(id: string) {
  return {
    id,
    type: 'ticket.updated',
    createdAt: '2024-05-01T10:00:00.000Z',
    resource: { type: 'ticket', id: '00000000-0000-4000-8000-000000000002' },
    data: { object: { id: '00000000-0000-4000-8000-000000000002', title: 'Printer' }, previous: { title: 'Old' } },
    actor: { type: 'sync' },
    requestId: null,
  }
}

async function deliver(body: string, headers: Record<string, string>) {
  return postWebhook(url, body, headers, { allowInsecureUrls: true, timeoutMs: 5_000 })
}

/** Waits until the receiver has printed `count` lines. */
async function lines(count: number): Promise<unknown[]> {
  for (let i = 0; i < 100; i++) {
    const all = output.split('\n').filter((line) => line.startsWith('{'))
    if (all.length >= count) return all.map((line) => JSON.parse(line))
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`receiver printed: ${output}`)
}

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', 'examples/webhook-receiver/server.ts'], {
    // The repository's build stands for the package: the example depends on it by version.
    env: { ...process.env, PORT: '0', WEBHOOK_SECRET: secret, TSX_TSCONFIG_PATH: repositoryBuildConfigs().tsconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  url = await new Promise<string>((resolve, reject) => {
    let errors = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`receiver exited with ${code}: ${errors}`)))
  })
})

afterAll(() => {
  child?.kill('SIGKILL')
})

describe('examples/webhook-receiver', () => {
  it('accepts a signed delivery and prints its event once, however often it is delivered', async () => {
    const body = JSON.stringify(event('evt_1'))
    const headers = webhookHeaders({ id: 'evt_1', body, secrets: [secret], timestamp: new Date() })
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect((await deliver(body, headers)).responseStatus).toBe(204)
    expect((await deliver(body, headers)).responseStatus).toBe(204)
    expect(await lines(1)).toEqual([{ received: 'evt_1', type: 'ticket.updated', resource: event('evt_1').resource }])
  })

  it('accepts a delivery signed during a rotation (its secret is one of two signatures)', async () => {
    const body = JSON.stringify(event('evt_2'))
    const headers = webhookHeaders({ id: 'evt_2', body, secrets: [newWebhookSecret(), secret], timestamp: new Date() })
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect((await deliver(body, headers)).responseStatus).toBe(204)
    expect((await lines(2))[1]).toMatchObject({ received: 'evt_2' })
  })

  it('accepts what standardwebhooks itself signs', async () => {
    const body = JSON.stringify(event('evt_3'))
    const now = new Date()
    const signature = new Webhook(secret).sign('evt_3', now, body)
    const headers = {
      'content-type': 'application/json',
      'webhook-id': 'evt_3',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    }
    expect((await deliver(body, headers)).responseStatus).toBe(204)
    expect((await lines(3))[2]).toMatchObject({ received: 'evt_3' })
  })

  it('refuses another secret, a tampered body or id, a stale timestamp and missing headers', async () => {
    const body = JSON.stringify(event('evt_4'))
    const good = webhookHeaders({ id: 'evt_4', body, secrets: [secret], timestamp: new Date() })
    const old = new Date(Date.now() - 10 * 60_000)
    const cases: [string, string, Record<string, string>][] = [
      [
        'another secret',
        body,
        webhookHeaders({ id: 'evt_4', body, secrets: [newWebhookSecret()], timestamp: new Date() }),
      ],
      ['a tampered body', body.replace('Printer', 'Scanner'), good],
      ['another id', body, { ...good, 'webhook-id': 'evt_5' }],
      ['a stale timestamp', body, webhookHeaders({ id: 'evt_4', body, secrets: [secret], timestamp: old })],
      ['no signature', body, { 'content-type': 'application/json', 'webhook-id': 'evt_4', 'webhook-timestamp': '1' }],
    ]
    for (const [label, sent, headers] of cases) {
      const result = await deliver(sent, headers)
      expect(result.responseStatus, label).toBe(400)
    }
    const printed = await lines(3 + cases.length)
    expect(printed.slice(3)).toEqual([
      { rejected: 'No matching signature found' },
      { rejected: 'No matching signature found' },
      { rejected: 'No matching signature found' },
      { rejected: 'Message timestamp too old' },
      { rejected: 'Missing required headers' },
    ])
  })
})
