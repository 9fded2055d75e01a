/** The demo tenant's NPS surveys, with responses and invite counts. */
import type { NpsSurveyRecord } from '../model/nps-surveys.js'
import type { Sfc32 } from './prng.js'
import { between, DAY, daysAgo, DEMO_NOW, iso } from './time.js'
import { DEMO_MSP } from './company-profiles.js'

/** Scores 0..10 skewed the way satisfied MSP clients answer (mostly 8–10, a tail of detractors). */
function npsScores(rng: Sfc32, count: number, mood: number): number[] {
  const weights = [1, 0.5, 0.5, 1, 1, 2, 3, 6, 12, 18 + mood, 22 + mood * 2]
  const scores = Array.from({ length: 11 }, (_, i) => i)
  return Array.from({ length: count }, () => rng.weighted(scores, weights))
}

/** NPS surveys with responses and invite counts (one brand-new survey without responses). */
export function makeNpsSurveys(rng: Sfc32): NpsSurveyRecord[] {
  const surveys: Array<
    [
      title: string,
      surveyType: string,
      interval: number | null,
      start: number,
      end: number | null,
      invites: number,
      rate: number,
      mood: number,
    ]
  > = [
    ['Ticket satisfaction', 'recurring', 1, daysAgo(700), null, 2400, 0.22, 4],
    ['Annual client survey 2024', 'one_time', null, Date.UTC(2024, 10, 1), Date.UTC(2024, 11, 15), 320, 0.41, 0],
    ['Annual client survey 2025', 'one_time', null, daysAgo(20), daysAgo(-25), 340, 0.18, 2],
    ['Onboarding experience', 'recurring', 3, daysAgo(500), null, 60, 0.55, 6],
    ['Project close-out feedback', 'one_time', null, daysAgo(3), null, 0, 0, 0],
  ]
  return surveys.map(([title, surveyType, frequencyInterval, start, end, inviteCount, rate, mood]) => {
    const createdAt = start - between(rng, 2 * DAY, 14 * DAY) + 0
    const responses = npsScores(rng, Math.round(inviteCount * rate), mood)
    return {
      id: rng.uuid(),
      title,
      description: `${title} sent by ${DEMO_MSP.name}.`,
      questionText: `How likely are you to recommend ${DEMO_MSP.name} to a friend or colleague?`,
      surveyType,
      ratingType: 'numeric_0_10',
      frequencyInterval,
      startDate: iso(start),
      endDate: end === null ? null : iso(end),
      isActive: (end === null || end > DEMO_NOW) && inviteCount > 0,
      reminderEnabled: rng.chance(0.6),
      reminderDaysAfter: rng.pick([3, 5, 7]),
      followUpEnabled: rng.chance(0.5),
      thankYouMessage: rng.chance(0.2) ? null : 'Thank you! Your feedback helps us serve you better.',
      inviteCount,
      responses,
      createdAt: iso(createdAt),
      updatedAt: iso(Math.min(DEMO_NOW - 60_000, Math.max(createdAt, end ?? daysAgo(1)))),
    }
  })
}
