import { defineOperation } from '../http/operation.js'
import { meetingTypes } from '../model/calendar.js'
import { listPage } from './list-pages.js'
import { listEnvelope } from '../model/shared.js'
import { MeetingTypeListQuerySchema, MeetingTypeSchema } from '../model/calendar.js'

export const listMeetingTypes = defineOperation({
  id: 'listMeetingTypes',
  method: 'GET',
  path: '/calendar/types',
  area: 'Calendar',
  summary: 'List calendar meeting types',
  description: 'Ordered by `orderIndex`, then `name`.',
  scope: 'calendar.read',
  query: MeetingTypeListQuerySchema,
  response: listEnvelope(MeetingTypeSchema),
  successStatus: 200,
  errors: [],
  handle: (context) => listPage(context, meetingTypes),
})
