/**
 * The report types, report templates and report of a fixture tenant. Template names tie in all
 * but case and hold code points above U+FFFF; one template has a structure, the others none.
 */
import { ReportTemplateDetailSchema } from '../../model/report-templates.js'
import * as v from 'valibot'
import { ReportSchema, ReportTypeSchema } from '../../model/reports.js'
import { JsonObjectSchema } from '../../model/shared.js'
import { defineFixture } from './fixture.js'
import {
  at,
  type FixtureTenant,
  fixtureId,
  fixtureIdRange,
  nameSuffix,
  type SeedList,
  shuffled,
} from './fixture-keys.js'
import type { FixtureIds } from './fixtures.js'

/** The kinds of {@link fixtureId} of this file's records. */
const TEMPLATE = 0x08
const TYPE = 0x09
const REPORT = 0x0a

/** Report templates: [name, isShared, report type index | null, createdAt, updatedAt]. */
export const REPORT_TEMPLATE_ROWS: Array<[string, boolean, number | null, string, string]> = [
  ['Quarterly review', true, 0, at(1), at(4)],
  ['quarterly review', false, 0, at(1), at(4)],
  ['Zeta summary', true, 1, at(2), at(2)],
  ['Étude', false, null, at(2), at(5)],
  ['😀 Fun', true, 1, at(3), at(3)],
  ['Quarterly review', true, null, at(3), at(4)],
]

/**
 * The two report types of a fixture tenant.
 *
 * @example
 * reportTypeSeeds('b', fixtureIds('b'))[0]?.name // 'Executive (B)'
 */
export function reportTypeSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'reportTypes'> {
  return ['Executive', 'Technical'].map((name, i) => ({
    id: ids.reportTypes[i]!,
    name: `${name}${nameSuffix(tenant)}`,
  }))
}

/**
 * The report templates of a fixture tenant, in id order; the first has a template structure.
 *
 * @example
 * reportTemplateSeeds('a', fixtureIds('a'))[0]?.templateStructure?.pagePreset // 'a4'
 */
export function reportTemplateSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'reportTemplates'> {
  return REPORT_TEMPLATE_ROWS.map(([name, isShared, type, createdAt, updatedAt], i) => ({
    id: ids.reportTemplates[i]!,
    name: `${name}${nameSuffix(tenant)}`,
    description: null,
    isShared,
    reportTypeId: type === null ? null : ids.reportTypes[type]!,
    createdAt,
    updatedAt,
    templateStructure:
      i === 0
        ? {
            blocks: [{ id: 'b1', type: 'text', params: { text: 'Hello' }, layout: { x: 0, y: 0, w: 6, h: 2 } }],
            metadata: {
              title: 'Quarterly',
              subtitle: null,
              showHeader: true,
              showFooter: false,
              showPageNumbers: true,
            },
            pagePreset: 'a4',
            displaySettings: { pageSize: 'A4', orientation: 'portrait', margins: { top: 10 } },
          }
        : null,
  }))
}

/**
 * The one report of a fixture tenant: a draft of January, of the first company, type and template.
 *
 * @example
 * reportSeeds('a', fixtureIds('a'))[0]?.status // 'draft'
 */
export function reportSeeds(tenant: FixtureTenant, ids: FixtureIds): SeedList<'reports'> {
  return [
    {
      id: ids.report,
      title: `January report${nameSuffix(tenant)}`,
      description: 'Monthly summary',
      status: 'draft' as const,
      isShared: false,
      version: 1,
      coverImageUrl: null,
      dateStart: '2024-01-01',
      dateEnd: '2024-01-31',
      companyId: ids.companies[0]!,
      reportTypeId: ids.reportTypes[0]!,
      reportTemplateId: ids.reportTemplates[0]!,
      authorUserId: ids.users[0]!,
      createdAt: at(1),
      updatedAt: at(2),
      content: { sections: [] },
    },
  ]
}

/**
 * The report types' fixture.
 *
 * @example
 * reportTypeFixture.ids('a').reportTypes.length // 2
 */
export const reportTypeFixture = defineFixture<'reportTypes'>()({
  ids: (tenant) => ({ reportTypes: fixtureIdRange(tenant, TYPE, 2) }),
  seed: reportTypeSeeds,
  writable: true,
  record: ReportTypeSchema,
})

/**
 * The report templates' fixture.
 *
 * @example
 * reportTemplateFixture.ids('a').reportTemplates.length // 6
 */
export const reportTemplateFixture = defineFixture<'reportTemplates'>()({
  ids: (tenant) => ({ reportTemplates: fixtureIdRange(tenant, TEMPLATE, REPORT_TEMPLATE_ROWS.length) }),
  seed: (tenant, ids) => shuffled(reportTemplateSeeds(tenant, ids)),
  writable: false,
  record: ReportTemplateDetailSchema,
})

/**
 * The reports' fixture: one report.
 *
 * @example
 * reportFixture.ids('a').report // 'aaaaaaaa-000a-4000-8000-000000000001'
 */
export const reportFixture = defineFixture<'reports'>()({
  ids: (tenant) => ({ report: fixtureId(tenant, REPORT, 1) }),
  seed: reportSeeds,
  writable: true,
  // As stored: with its content, without the names its view adds.
  record: v.strictObject({
    ...v.omit(ReportSchema, ['companyName', 'reportTypeName']).entries,
    content: v.nullable(JsonObjectSchema),
  }),
})
