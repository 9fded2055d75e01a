/** The demo tenant's calendar meeting types, client-facing and internal. */
import type { MeetingType } from '../model/calendar.js'
import type { Sfc32 } from './prng.js'
import { between, daysAgo, iso } from './time.js'

const MEETING_TYPES: ReadonlyArray<[name: string, color: string, isInternal: boolean]> = [
  ['Quarterly Business Review', '#1e88e5', false],
  ['Onboarding Kickoff', '#43a047', false],
  ['Technical Alignment Review', '#8e24aa', false],
  ['Security Review', '#e53935', false],
  ['Budget Planning', '#fb8c00', false],
  ['Project Check-in', '#00897b', false],
  ['Service Desk Stand-up', '#546e7a', true],
  ['Team One-on-One', '#6d4c41', true],
  ['Dispatch Huddle', '#3949ab', true],
]

/** Calendar meeting types. */
export function makeMeetingTypes(rng: Sfc32): MeetingType[] {
  return MEETING_TYPES.map(([name, color, isInternal], orderIndex) => {
    const createdAt = between(rng, daysAgo(1200), daysAgo(200))
    return {
      id: rng.uuid(),
      name,
      color: rng.chance(0.1) ? null : color,
      isInternal,
      orderIndex,
      createdAt: iso(createdAt),
      updatedAt: iso(between(rng, createdAt, daysAgo(5))),
    }
  })
}
