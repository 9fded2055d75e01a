import { describe, expect, expectTypeOf, it } from 'vitest'
import { createClient, type ItemOf } from 'tenant-public-api/client'
import { IDS, setup } from '../http/fixture.js'
import { contractFetch } from '../support/contract.js'

async function seeded() {
  const s = await setup()
  const seen: URL[] = []
  const fetchThrough = contractFetch(s.api)
  const client = createClient({
    baseUrl: 'http://api.test',
    apiKey: s.key,
    fetch: (input, init) => {
      seen.push(new URL(input))
      return fetchThrough(input, init)
    },
  })
  return { ...s, client, seen }
}

describe('client: the events feed', () => {
  it('listEvents answers a typed page; paginate.listEvents walks the whole feed by after', async () => {
    const { client, seen } = await seeded()
    const page = await client.listEvents({ limit: 2, types: ['company.created', 'user.created'] })
    expectTypeOf(page.data[0]!).toEqualTypeOf<ItemOf<'listEvents'>>()
    expect(page.data.map((e) => e.type).every((t) => t === 'company.created' || t === 'user.created')).toBe(true)
    expect(seen[0]?.searchParams.get('types')).toBe('company.created,user.created')
    const all: string[] = []
    for await (const event of client.paginate.listEvents({ limit: 3 })) all.push(event.id)
    expect(all.length).toBeGreaterThan(3)
    expect([...all].sort()).toEqual(all)
    expect(new Set(all).size).toBe(all.length)
    expect(seen.slice(1).map((u) => u.searchParams.get('after'))).toEqual(
      [null, ...all.filter((_, i) => i % 3 === 2)].slice(0, seen.length - 1),
    )
  })

  it('tailEvents yields the backlog, then new events as they are written, and ends on abort', async () => {
    const { client } = await seeded()
    const backlog = (await client.listEvents({ limit: 100 })).data
    const controller = new AbortController()
    const got: string[] = []
    const tail = (async () => {
      for await (const event of client.tailEvents({
        intervalMs: 20,
        signal: controller.signal,
        types: ['budget.updated'],
      })) {
        got.push(event.type)
        if (got.length === 2) controller.abort()
      }
    })()
    await client.updateBudget(IDS.budget, { title: 'First' })
    await new Promise((resolve) => setTimeout(resolve, 60))
    await client.updateBudget(IDS.budget, { title: 'Second' })
    await tail
    expect(got).toEqual(['budget.updated', 'budget.updated'])
    expect(backlog.some((e) => e.type === 'budget.updated')).toBe(false)
  })

  it('tailEvents starts after the given event', async () => {
    const { client } = await seeded()
    const [first, second] = (await client.listEvents({ limit: 2 })).data
    const controller = new AbortController()
    for await (const event of client.tailEvents({ after: first!.id, signal: controller.signal })) {
      expect(event.id).toBe(second!.id)
      controller.abort()
    }
  })
})
