/**
 * Each collection's view is one pure function of the stored record and its declared needs, which
 * every store and the event views call: it adds exactly its `fields` (and the needs it shows), and
 * never changes what it is given (stores hand it frozen records).
 */
import { describe, expect, it } from 'vitest'
import type { BudgetLineItem, BudgetRecord } from '../../src/model/budgets.js'
import type { AutomationRuleRecord } from '../../src/model/automation-rules.js'
import { automationRules, COLLECTIONS, defineView, reports, viewOfGet, type ViewNeed } from '../../src/model/index.js'
import type { ReportRecord } from '../../src/model/reports.js'
import type { NpsSurveyRecord } from '../../src/model/nps-surveys.js'
import type { TrainingCourseRecord } from '../../src/model/training.js'
import { deepFreeze } from '../../src/model/frozen-records.js'

const at = '2025-01-01T00:00:00.000Z'
const noNames = { company: new Map(), reportType: new Map() }
const item = (type: BudgetLineItem['type'], status: BudgetLineItem['status'], annualisedCost: number) =>
  ({ id: `${type}-${status}`, type, status, annualisedCost }) as BudgetLineItem

/** A record and needs for each collection that has a view. */
const SAMPLES: Record<string, { record: object; needs: object }> = {
  budgets: {
    record: { id: 'b1', name: 'Q3', createdAt: at, updatedAt: at } as unknown as BudgetRecord,
    needs: {
      lineItems: [item('Software', 'approved', 100.005), item('Software', 'rejected', 50), item('Labour', 'draft', 2)],
    },
  },
  trainingCourses: {
    record: { id: 'c1', title: 'Phishing', createdAt: at, updatedAt: at } as unknown as TrainingCourseRecord,
    needs: { enrollmentCount: 3 },
  },
  npsSurveys: {
    record: { id: 's1', name: 'Q3', inviteCount: 8, responses: [10, 9, 7, 3] } as unknown as NpsSurveyRecord,
    needs: {},
  },
  automationRules: {
    record: {
      id: 'r1',
      name: 'Stale',
      companyIds: ['c2', 'gone', 'c1'],
      createdAt: at,
    } as unknown as AutomationRuleRecord,
    needs: {
      companies: new Map([
        ['c1', 'Acme'],
        ['c2', null],
      ]),
    },
  },
  reports: {
    record: {
      ...Object.fromEntries(
        Object.keys(reports.view.show({} as ReportRecord, noNames))
          .filter((key) => !(reports.view.fields as readonly string[]).includes(key))
          .map((key) => [key, null]),
      ),
      id: 'p1',
      title: 'Q3',
      companyId: 'c1',
      reportTypeId: 'gone',
      content: { blocks: [] },
    } as unknown as ReportRecord,
    needs: { company: new Map([['c1', 'Acme']]), reportType: new Map() },
  },
}

describe('collection views', () => {
  const withViews = COLLECTIONS.filter((c) => c.view !== null)

  it('every view has a sample here', () => {
    expect(withViews.map((c) => c.name).sort()).toEqual(Object.keys(SAMPLES).sort())
  })

  for (const collection of withViews) {
    it(`${collection.name}: adds its fields and the needs it shows, from frozen input, twice alike`, () => {
      const view = collection.view!
      const sample = SAMPLES[collection.name]!
      const record = deepFreeze(structuredClone(sample.record))
      const needs = deepFreeze(structuredClone(sample.needs))
      expect(Object.keys(needs).sort()).toEqual(Object.keys(view.needs).sort())
      const show = view.show as (record: object, needs: object) => Record<string, unknown>
      const shown = show(record, needs)
      const added = Object.keys(shown).filter((key) => !(key in record))
      for (const field of view.fields) expect(added).toContain(field)
      // What a view adds replaces nothing of the record's but what it hides (a report's content).
      for (const key of Object.keys(record)) if (key in shown) expect(shown[key]).toEqual(record[key as never])
      for (const key of added) expect([...view.fields, ...Object.keys(view.needs)]).toContain(key)
      expect(show(record, needs)).toEqual(shown)
      expect([record, needs]).toEqual([sample.record, sample.needs])
    })
  }

  it('every need names a collection of COLLECTIONS and what a store reads it by', () => {
    for (const collection of withViews)
      for (const [name, need] of Object.entries<ViewNeed>(collection.view!.needs)) {
        const source = 'names' in need ? need.names : 'children' in need ? need.children : need.count
        expect(COLLECTIONS as readonly unknown[], `${collection.name}.${name}`).toContain(source)
        if ('names' in need) {
          // Names are read by the ids a field of the record holds.
          expect(SAMPLES[collection.name]!.record, `${collection.name}.${name}`).toHaveProperty(need.field)
        } else if ('children' in need) {
          // Children are the records of a collection kept under this one, keyed by its id first.
          expect(need.children.parent?.collection, `${collection.name}.${name}`).toBe(collection.name)
          expect(need.children.key[0]?.name, `${collection.name}.${name}`).toBe(need.by)
        } else {
          const columns = need.count.columns.map((c) => c.name)
          expect(columns, `${collection.name}.${name}`).toContain(need.by)
        }
      }
  })

  it('defineView refuses a need by a column its collection does not have', () => {
    const enrollments = COLLECTIONS.find((c) => c.name === 'trainingEnrollments')!
    expect(() =>
      defineView<object, { n: number }, object, never>({
        fields: [],
        needs: { n: { count: enrollments, by: 'no_such_column' } },
        show: (record) => record,
      }),
    ).toThrow(/no_such_column/)
  })

  it('budgets: totals skip rejected items, round to cents; line items are a copy', () => {
    const { record, needs } = SAMPLES.budgets! as { record: BudgetRecord; needs: { lineItems: BudgetLineItem[] } }
    const budget = COLLECTIONS.find((c) => c.name === 'budgets')!
    const shown = (budget.view!.show as (r: BudgetRecord, n: typeof needs) => Record<string, unknown>)(record, needs)
    expect(shown.totals).toEqual({
      softwareTotal: 100.01,
      hardwareTotal: 0,
      labourTotal: 2,
      subscriptionTotal: 0,
      otherTotal: 0,
      grandTotal: 102.01,
    })
    expect(shown.lineItemCount).toBe(3)
    expect(shown.lineItems).toEqual(needs.lineItems)
    expect(shown.lineItems).not.toBe(needs.lineItems)
  })

  it('automationRules: companies name the ids of the tenant’s companies, in the order of companyIds', () => {
    const { record, needs } = SAMPLES.automationRules! as {
      record: AutomationRuleRecord
      needs: { companies: Map<string, string | null> }
    }
    expect(automationRules.view.show(record, needs).companies).toEqual([
      { id: 'c2', name: null },
      { id: 'c1', name: 'Acme' },
    ])
  })

  it('reports: names follow the ids (null for none or one the tenant lacks), content is not shown', () => {
    const { record, needs } = SAMPLES.reports! as { record: ReportRecord; needs: typeof noNames }
    const shown = reports.view.show(record, needs)
    expect([shown.companyName, shown.reportTypeName, 'content' in shown]).toEqual(['Acme', null, false])
    const none = reports.view.show({ ...record, companyId: null }, { ...needs, company: new Map([['c1', 'Acme']]) })
    expect(none.companyName).toBeNull()
  })

  it('store.get applies the views that need no names: rules and reports are read as stored', () => {
    expect(COLLECTIONS.filter((c) => viewOfGet(c.view) !== null).map((c) => c.name)).toEqual([
      'budgets',
      'trainingCourses',
      'npsSurveys',
    ])
  })

  it('defineView refuses a names need without a field', () => {
    const companies = COLLECTIONS.find((c) => c.name === 'companies')!
    expect(() =>
      defineView<object, { n: Map<string, string | null> }, object, never>({
        fields: [],
        needs: { n: { names: companies, field: '' } },
        show: (record) => record,
      }),
    ).toThrow(/cannot be read by/)
  })

  it('npsSurveys: statistics and responseCount replace the responses', () => {
    const { record } = SAMPLES.npsSurveys! as { record: NpsSurveyRecord }
    const survey = COLLECTIONS.find((c) => c.name === 'npsSurveys')!
    const shown = (survey.view!.show as (r: NpsSurveyRecord, n: object) => Record<string, unknown>)(record, {})
    expect('responses' in shown).toBe(false)
    expect([shown.responseCount, shown.statistics]).toEqual([
      4,
      { npsScore: 25, averageScore: 7.25, responseRate: 50, promotersCount: 2, passivesCount: 1, detractorsCount: 1 },
    ])
  })
})
