/** NPS surveys: documents holding their responses; statistics are computed when read. */
import type { NpsSurveyRecord } from '../resources/nps-surveys/schema.js'
import { defineCollection } from './collection.js'

/**
 * The NPS surveys collection (documents only).
 *
 * @example
 * npsSurveys.table // 'nps_surveys'
 */
export const npsSurveys = defineCollection<NpsSurveyRecord>({ name: 'npsSurveys', table: 'nps_surveys' })
