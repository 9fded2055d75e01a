/** The goals of a fixture tenant, each with tasks and updates seeded out of order. */
import { companyRef } from './fixture-companies-and-users.js'
import { GoalSchema } from '../../model/goals.js'
import { defineFixture } from './fixture.js'
import { at, type FixtureTenant, fixtureId, fixtureIdRange, nameSuffix, type SeedList } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kinds of {@link fixtureId} of this file's records. */
const GOAL = 0x0d
const TASK = 0x12
const UPDATE = 0x13

/**
 * The two goals of a fixture tenant. Their tasks and updates are seeded out of order: tasks come
 * back oldest first, updates newest first.
 *
 * @example
 * goalSeeds('a', fixtureIds('a'))[1]?.progressPercentage // 50
 */
export function goalSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'goals'> {
  return ids.goals.map((id, g) => ({
    id,
    title: `Goal ${g + 1}${nameSuffix(tenant)}`,
    progressPercentage: 25 * (g + 1),
    quarter: 'Q1',
    year: 2024,
    company: companyRef(tenant, 0),
    createdAt: at(1),
    updatedAt: at(2),
    tasks: [
      {
        id: fixtureId(tenant, TASK, g * 10 + 2),
        title: 'Second task',
        isCompleted: false,
        description: null,
        dueDate: null,
        createdAt: at(3),
      },
      {
        id: fixtureId(tenant, TASK, g * 10 + 1),
        title: 'First task',
        isCompleted: true,
        description: null,
        dueDate: at(31),
        createdAt: at(2),
      },
      {
        id: fixtureId(tenant, TASK, g * 10 + 3),
        title: 'Third task',
        isCompleted: false,
        description: 'Last',
        dueDate: null,
        createdAt: at(4),
      },
    ],
    updates: [
      {
        id: fixtureId(tenant, UPDATE, g * 10 + 1),
        updateText: 'Oldest',
        progressPercentage: 10,
        createdAt: at(2),
      },
      {
        id: fixtureId(tenant, UPDATE, g * 10 + 3),
        updateText: 'Newest',
        progressPercentage: 30,
        createdAt: at(4),
      },
      {
        id: fixtureId(tenant, UPDATE, g * 10 + 2),
        updateText: 'Middle',
        progressPercentage: 20,
        createdAt: at(3),
      },
    ],
  }))
}

/**
 * The goals' fixture.
 *
 * @example
 * goalFixture.ids('a').goals.length // 2
 */
export const goalFixture = defineFixture<'goals'>()({
  ids: (tenant) => ({ goals: fixtureIdRange(tenant, GOAL, 2) }),
  seed: goalSeeds,
  writable: true,
  record: GoalSchema,
})
