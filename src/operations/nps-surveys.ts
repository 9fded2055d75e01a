import { NpsSurveySchema, npsSurveys } from '../model/nps-surveys.js'
import { readOne } from './reads.js'
import { TextIdParams } from './results.js'

export const getNpsSurvey = readOne(npsSurveys, {
  id: 'getNpsSurvey',
  path: '/surveys/nps/:id',
  area: 'NPS Surveys',
  summary: 'Get an NPS survey with its statistics',
  scope: 'surveys.read',
  params: TextIdParams,
  item: NpsSurveySchema,
  what: 'NPS survey',
})
