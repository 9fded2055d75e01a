/** The meeting types of a fixture tenant: ties on orderIndex, and on orderIndex and name. */
import { MeetingTypeSchema } from '../../model/calendar.js'
import { defineFixture } from './fixture.js'
import { at, type FixtureTenant, nameSuffix, type SeedList, shuffled } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** Meeting types: [name, orderIndex]. Ties on orderIndex ordered by name, then on both by id. */
export const MEETING_TYPE_ROWS: Array<[string, number]> = [
  ['Review', 2],
  ['Kickoff', 1],
  ['kickoff', 1],
  ['Zoom call', 1],
  ['Standup', 0],
  ['Kickoff', 1],
  ['Retro', 3],
]

/**
 * The meeting types of a fixture tenant, in id order.
 *
 * @example
 * meetingTypeSeeds('a', fixtureIds('a'))[0]?.color // '#ff0000'
 */
export function meetingTypeSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'meetingTypes'> {
  return MEETING_TYPE_ROWS.map(([name, orderIndex], i) => ({
    id: ids.meetingTypes[i]!,
    name: `${name}${nameSuffix(tenant)}`,
    color: i === 0 ? '#ff0000' : null,
    isInternal: i % 2 === 0,
    orderIndex,
    createdAt: at(1),
    updatedAt: at(1),
  }))
}

/**
 * The meeting types' fixture: free-form ids, `mt-<tenant>-01` and on.
 *
 * @example
 * meetingTypeFixture.ids('a').meetingTypes[0] // 'mt-a-01'
 */
export const meetingTypeFixture = defineFixture<'meetingTypes'>()({
  ids: (tenant) => ({
    meetingTypes: MEETING_TYPE_ROWS.map((_, i) => `mt-${tenant}-${String(i + 1).padStart(2, '0')}`),
  }),
  seed: (tenant, ids) => shuffled(meetingTypeSeeds(tenant, ids)),
  writable: false,
  record: MeetingTypeSchema,
})
