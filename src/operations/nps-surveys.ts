import { defineOperation } from '../http/operation.js'
import { dataEnvelope } from '../model/shared.js'
import { found, ok, TextIdParams } from './results.js'
import { NpsSurveySchema, npsSurveys } from '../model/nps-surveys.js'

export const getNpsSurvey = defineOperation({
  id: 'getNpsSurvey',
  method: 'GET',
  path: '/surveys/nps/:id',
  area: 'NPS Surveys',
  summary: 'Get an NPS survey with its statistics',
  scope: 'surveys.read',
  params: TextIdParams,
  response: dataEnvelope(NpsSurveySchema),
  successStatus: 200,
  errors: ['NOT_FOUND'],
  handle: async ({ store, tenantId, params }) =>
    ok(await found(store.get(npsSurveys, tenantId, params.id), 'NPS survey')),
})
