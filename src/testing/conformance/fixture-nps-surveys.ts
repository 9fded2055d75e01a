/** The NPS surveys of a fixture tenant: scores that round, one empty, one with responses and no invites. */
import { NpsSurveySchema } from '../../model/nps-surveys.js'
import { defineFixture } from './fixture.js'
import { at, type FixtureTenant, nameSuffix, type SeedList } from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/**
 * NPS responses of the fixture surveys.
 *
 * @example
 * NPS_RESPONSES.full.length // 7
 */
export const NPS_RESPONSES = {
  /** 3 promoters, 2 passives, 2 detractors of 9 invites: nps 14 (14.29), average 7.14, rate 77.78. */
  full: [10, 9, 7, 6, 0, 10, 8],
  /** 3 promoters, 3 passives, 2 detractors: nps 12.5 rounds to 13; average 7.25; 8 of 8 invited. */
  half: [9, 9, 10, 7, 8, 8, 5, 2],
  noInvites: [9, 3],
} as const

/** The statistics of the full fixture survey (`ids.npsSurveys.full`): 7 responses of 9 invites. */
export const FULL_SURVEY_STATISTICS = {
  npsScore: 14,
  averageScore: 7.14,
  responseRate: 77.78,
  promotersCount: 3,
  passivesCount: 2,
  detractorsCount: 2,
} as const

/**
 * The four NPS surveys of a fixture tenant (`ids.npsSurveys`).
 *
 * @example
 * npsSurveySeeds('a', fixtureIds('a'))[0]?.inviteCount // 9
 */
export function npsSurveySeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'npsSurveys'> {
  const npsSurvey = (id: string, title: string, responses: readonly number[], inviteCount: number) => ({
    id,
    title: `${title}${nameSuffix(tenant)}`,
    surveyType: 'one_time',
    ratingType: 'numeric_0_10',
    isActive: true,
    reminderEnabled: false,
    followUpEnabled: false,
    inviteCount,
    createdAt: at(1),
    updatedAt: at(1),
    responses: [...responses],
  })
  return [
    npsSurvey(ids.npsSurveys.full, 'Quarterly NPS', NPS_RESPONSES.full, 9),
    npsSurvey(ids.npsSurveys.empty, 'Empty NPS', [], 0),
    npsSurvey(ids.npsSurveys.noInvites, 'Uninvited NPS', NPS_RESPONSES.noInvites, 0),
    npsSurvey(ids.npsSurveys.half, 'Half NPS', NPS_RESPONSES.half, 8),
  ]
}

/**
 * The NPS surveys' fixture: free-form ids, one survey per case of the statistics.
 *
 * @example
 * npsSurveyFixture.ids('a').npsSurveys.full // 'nps-a-full'
 */
export const npsSurveyFixture = defineFixture<'npsSurveys'>()({
  ids: (tenant) => ({
    npsSurveys: {
      full: `nps-${tenant}-full`,
      empty: `nps-${tenant}-empty`,
      noInvites: `nps-${tenant}-no-invites`,
      half: `nps-${tenant}-half`,
    },
  }),
  seed: npsSurveySeeds,
  writable: false,
  record: NpsSurveySchema,
})
