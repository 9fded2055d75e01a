/**
 * What an event shows of a stored record (docs/extensions.md, section 3): the resource as the API
 * returns it (its GET, or its write or list where it has no GET), computed from the stored record
 * and the few other records it names. Shared by every store, so their events are the same.
 */
import type { CountNeed } from '../model/collection.js'
import { changeOf, type EventDraft, type EventResourceType } from '../model/events.js'
import { companies, reportTypes, SEEDED_COLLECTIONS } from '../model/index.js'
import type { StoreCollection } from '../ports/store.js'
import type { SyncCollection } from '../model/removal.js'
import { type BudgetLineItem, type BudgetRecord, budgets } from '../model/budgets.js'
import { type NpsSurveyRecord, npsSurveys } from '../model/nps-surveys.js'
import { type TrainingCourseRecord, trainingCourses } from '../model/training.js'

/** The resource type of each seed key's events (its collection's `event.resource`); report types have none. */
export const EVENT_RESOURCE_OF = Object.fromEntries(
  SEEDED_COLLECTIONS.map((c) => [c.name, c.event === null ? null : c.event.resource]),
) as Readonly<Record<SyncCollection, EventResourceType | null>>

/** What a view reads of other records. */
export interface ViewLookups {
  /** The name of a company of the tenant; undefined when there is none. */
  companyName(id: string): string | null | undefined
  reportTypeName(id: string): string | null | undefined
  /** The enrollments of a course now. */
  enrollmentCount(courseId: string): number
}

type Doc = Record<string, unknown>

/**
 * The lookups of a store that reads any document by collection and id and counts a view's count
 * need (the memory store, a third-party store): the names are the documents' `name`, the count the
 * one `trainingCourses`' view declares.
 *
 * @example
 * lookupsFrom((collection, id) => documents.get(collection.name)?.get(id), (need, id) => countOf(need, id))
 */
export function lookupsFrom(
  read: (collection: StoreCollection, id: string) => Doc | undefined,
  count: (need: CountNeed, id: string) => number,
): ViewLookups {
  const name = (collection: StoreCollection, id: string) => read(collection, id)?.name as string | null | undefined
  return {
    companyName: (id) => name(companies, id),
    reportTypeName: (id) => name(reportTypes, id),
    enrollmentCount: (courseId) => count(trainingCourses.view.needs.enrollmentCount, courseId),
  }
}

/**
 * The event object of a stored record of `key` (tickets without notes, budgets with their line
 * items and totals, rules with `companies`, reports with names and without `content`, templates
 * without structure, courses with `enrollmentCount`, surveys with statistics).
 *
 * @example
 * eventView('companies', company, lookups) // the company as GET /companies lists it
 */
export function eventView(key: SyncCollection, record: Doc, lookups: ViewLookups): Doc {
  switch (key) {
    case 'tickets': {
      const { notes: _notes, ...ticket } = record
      return ticket
    }
    case 'budgets': {
      const { lineItems, ...budget } = record as Doc & { lineItems?: readonly BudgetLineItem[] }
      return budgets.view.show(budget as BudgetRecord, { lineItems: lineItems ?? [] })
    }
    case 'automationRules': {
      const companies = (record.companyIds as string[]).flatMap((id) => {
        const name = lookups.companyName(id)
        return name === undefined ? [] : [{ id, name }]
      })
      return { ...record, companies }
    }
    case 'reports': {
      const { content: _content, ...report } = record
      const companyId = report.companyId as string | null
      const reportTypeId = report.reportTypeId as string | null
      return {
        ...report,
        companyName: companyId === null ? null : (lookups.companyName(companyId) ?? null),
        reportTypeName: reportTypeId === null ? null : (lookups.reportTypeName(reportTypeId) ?? null),
      }
    }
    case 'reportTemplates': {
      const { templateStructure: _structure, ...template } = record
      return template
    }
    case 'trainingCourses': {
      const course = record as TrainingCourseRecord
      return trainingCourses.view.show(course, { enrollmentCount: lookups.enrollmentCount(course.id) })
    }
    case 'npsSurveys':
      return npsSurveys.view.show(record as NpsSurveyRecord, {})
    default:
      return record
  }
}

/** A stored record as change detection sees it: its full stored text and its event object. */
export interface StoredState {
  /** The record as stored (document and parts): equal text, no change. */
  fingerprint: string
  view: Doc
}

/**
 * The draft of a sync or write that took a record from `before` to `after` (null: absent), or
 * null when the stored record did not change. A change only in what the object does not show
 * (a ticket's notes) is an `updated` event whose `previous` is empty.
 *
 * @example
 * const draft = syncChange('company', id, before, after)
 */
export function syncChange(
  type: EventResourceType,
  id: string,
  before: StoredState | null,
  after: StoredState | null,
): EventDraft | null {
  if (before === null && after === null) return null
  if (before !== null && after !== null && before.fingerprint === after.fingerprint) return null
  return (
    changeOf(type, id, before?.view ?? null, after?.view ?? null) ?? {
      type: `${type}.updated`,
      resource: { type, id },
      object: after!.view,
      previous: {},
    }
  )
}
