/** NPS surveys: documents holding their responses; statistics are computed when read. */
import * as v from 'valibot'
import { DateTimeSchema, NullableDateTimeSchema } from './shared.js'
import { defineCollection, defineView } from './collection.js'
import { omit, seedSchemaOf } from './seed-schema.js'
import { npsStatistics } from './computed.js'

/**
 * A nps statistics, as the API reads and writes it.
 *
 * @example
 * v.parse(NpsStatisticsSchema, survey.statistics).npsScore // promoters' share less detractors', -100..100
 */
export const NpsStatisticsSchema = v.strictObject({
  npsScore: v.number(),
  averageScore: v.number(),
  responseRate: v.number(),
  promotersCount: v.number(),
  passivesCount: v.number(),
  detractorsCount: v.number(),
})
export type NpsStatistics = v.InferOutput<typeof NpsStatisticsSchema>

/**
 * An NPS survey with its aggregated statistics (computed from its responses).
 *
 * @example
 * // `event` from verifyWebhook (tenant-public-api/client), of type 'nps_survey.updated':
 * const survey = v.parse(NpsSurveySchema, event.data.object)
 * dashboard.set(survey.id, survey.statistics.npsScore, survey.responseCount)
 */
export const NpsSurveySchema = v.strictObject({
  id: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  questionText: v.nullable(v.string()),
  surveyType: v.string(),
  ratingType: v.string(),
  frequencyInterval: v.nullable(v.number()),
  startDate: NullableDateTimeSchema,
  endDate: NullableDateTimeSchema,
  isActive: v.boolean(),
  reminderEnabled: v.boolean(),
  reminderDaysAfter: v.nullable(v.number()),
  followUpEnabled: v.boolean(),
  thankYouMessage: v.nullable(v.string()),
  responseCount: v.number(),
  inviteCount: v.number(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  statistics: NpsStatisticsSchema,
})
export type NpsSurvey = v.InferOutput<typeof NpsSurveySchema>
/** A survey as a store keeps it: its response scores (0..10) instead of the derived figures. */
export type NpsSurveyRecord = Omit<NpsSurvey, 'statistics' | 'responseCount'> & { responses: number[] }

/**
 * A survey as read: its response count and statistics instead of its responses.
 *
 * @example
 * npsSurveys.view.show(record, {}).statistics.npsScore
 */
const npsSurveyView = defineView({
  fields: ['statistics', 'responseCount'],
  needs: {},
  show: ({ responses, ...survey }: NpsSurveyRecord, _needs: Record<never, never>): NpsSurvey => ({
    ...survey,
    responseCount: responses.length,
    statistics: npsStatistics(responses, survey.inviteCount),
  }),
})

/**
 * The NPS surveys collection (documents only).
 *
 * @example
 * npsSurveys.table // 'nps_surveys'
 */
export const npsSurveys = defineCollection<NpsSurveyRecord>()({
  name: 'npsSurveys',
  table: 'nps_surveys',
  event: { resource: 'nps_survey', readScope: 'surveys.read' },
  // Its responses instead of the figures the view computes from them (0 to 10 each, none by default).
  seed: seedSchemaOf(
    v.object({
      ...omit(NpsSurveySchema.entries, ...npsSurveyView.fields),
      responses: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10))), []),
    }),
  ),
  view: npsSurveyView,
})
