import { MeetingTypeSchema, meetingTypes } from '../model/calendar.js'
import { readList } from './reads.js'

export const listMeetingTypes = readList(meetingTypes, {
  id: 'listMeetingTypes',
  path: '/calendar/types',
  area: 'Calendar',
  summary: 'List calendar meeting types',
  description: 'Ordered by `orderIndex`, then `name`.',
  scope: 'calendar.read',
  item: MeetingTypeSchema,
})
