/**
 * `readableEventTypes` (the events feed's filter, with the granting scopes written once) decides as
 * `mayReadEventType` does, for any set of scopes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SCOPES } from '../../src/http/auth.js'
import { EVENT_TYPES, mayReadEventType } from '../../src/model/events.js'
import { readableEventTypes } from '../../src/operations/events.js'

describe('readableEventTypes', () => {
  it('is every event type mayReadEventType allows, in order', () => {
    const scopes = fc.subarray([...SCOPES, 'unknown.read', 'tickets'])
    fc.assert(
      fc.property(scopes, (granted) => {
        expect(readableEventTypes(granted)).toEqual(EVENT_TYPES.filter((type) => mayReadEventType(granted, type)))
      }),
      { numRuns: 500 },
    )
    expect(readableEventTypes(['tickets.read'])).toEqual(['ticket.created', 'ticket.updated', 'ticket.deleted'])
  })
})
