/**
 * src/client/routes.ts is generated from the registry (scripts/generate-client-routes.ts): it must be
 * the generator's current output, and the generator must read every flag from the declarations.
 */
import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { type AnyOperation, operations } from 'tenant-public-api'
import { CLIENT_ROUTES_PATH, clientFlags, renderClientRoutes } from '../../scripts/generate-client-routes.js'

const byId = (id: string) => operations.find((operation) => operation.id === id)!

describe('the client routes', () => {
  it("are the registry's, as generated (`npm run reference` after a change to an operation)", () => {
    expect(readFileSync(CLIENT_ROUTES_PATH, 'utf8')).toBe(renderClientRoutes())
  })

  it('take each flag from the declaration: list, feed, Idempotency-Key, If-Match', () => {
    expect(clientFlags(byId('listTickets'))).toEqual(['list'])
    expect(clientFlags(byId('listEvents'))).toEqual(['feed'])
    expect(clientFlags(byId('createBudgetLineItem'))).toEqual(['idempotent'])
    expect(clientFlags(byId('updateReport'))).toEqual(['ifMatch'])
    expect(clientFlags(byId('getTicket'))).toEqual([])
    // A declaration that changes changes the flags.
    const ticket = byId('getTicket')
    expect(clientFlags({ ...ticket, idempotent: true, errors: [...ticket.errors, 'PRECONDITION_FAILED'] })).toEqual([
      'idempotent',
      'ifMatch',
    ])
  })

  it('refuse a paginated answer that is neither a list with pages nor a feed taking `after`', () => {
    const odd: AnyOperation = {
      ...byId('listEvents'),
      id: 'listOdd',
      query: v.strictObject({ limit: v.optional(v.string()) }),
    }
    expect(() => clientFlags(odd)).toThrow(/listOdd: a paginated answer/)
  })
})
