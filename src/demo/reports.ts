/**
 * The demo tenant's report types and reports: business reviews, service reports and assessments of
 * the active companies, per quarter.
 */
import type { ReportTemplateRecord } from '../model/report-templates.js'
import type { ReportRecord, ReportType } from '../model/reports.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, DEMO_NOW, iso, isoDate, quarterEnd, quarterStart } from './time.js'
import { DEMO_MSP } from './company-profiles.js'

type Ref = { id: string; name: string }

const REPORT_TYPES = [
  'Quarterly Business Review',
  'Monthly Service Report',
  'Security Assessment',
  'Compliance Summary',
  'Asset Lifecycle Report',
  'Strategic Roadmap',
]

/** The report types (no endpoint of their own; reports and templates name them). */
export function makeReportTypes(rng: Sfc32): ReportType[] {
  return REPORT_TYPES.map((name) => ({ id: rng.uuid(), name }))
}

/** Reports for the active companies: business reviews per quarter, service reports, assessments. */
export function makeReports(
  rng: Sfc32,
  companies: readonly DemoCompany[],
  types: readonly ReportType[],
  templates: readonly ReportTemplateRecord[],
  authors: readonly Ref[],
): ReportRecord[] {
  const reports: ReportRecord[] = []
  for (const company of companies) {
    if (!company.active) continue
    const count = rng.int(1, 3)
    for (let r = 0; r < count; r++) {
      const type = rng.weighted(types, [5, 4, 2, 1, 1, 1])
      const template = templates.find((t) => t.reportTypeId === type.id) ?? null
      const [year, quarter] = rng.pick([
        [2024, 4],
        [2025, 1],
        [2025, 2],
        [2025, 3],
      ] as const)
      const start = quarterStart(year, quarter)
      const end = Math.min(quarterEnd(year, quarter), DEMO_NOW - DAY)
      const createdAt = between(rng, end - 20 * DAY, Math.min(end + 25 * DAY, DEMO_NOW - DAY))
      const version = rng.int(1, 5)
      const published = quarterEnd(year, quarter) < DEMO_NOW - 30 * DAY ? rng.chance(0.85) : rng.chance(0.3)
      reports.push({
        id: rng.uuid(),
        title: `${company.name}: ${type.name}, Q${quarter} ${year}`,
        description: rng.chance(0.2) ? null : `${type.name} for ${company.name} covering Q${quarter} ${year}.`,
        status: published ? 'published' : 'draft',
        isShared: published && rng.chance(0.7),
        version,
        coverImageUrl: rng.chance(0.5)
          ? `https://assets.${DEMO_MSP.domain}/covers/${type.name.toLowerCase().replace(/[^a-z]+/g, '-')}.png`
          : null,
        dateStart: isoDate(start),
        dateEnd: isoDate(end),
        companyId: company.id,
        reportTypeId: rng.chance(0.95) ? type.id : null,
        reportTemplateId: template?.id ?? null,
        authorUserId: rng.pick(authors).id,
        createdAt: iso(createdAt),
        updatedAt: iso(version > 1 ? between(rng, createdAt, DEMO_NOW - 60_000) : createdAt),
        content: {
          summary: `Service was ${rng.pick(['stable', 'busier than usual', 'quiet', 'steady'])} this quarter.`,
          sections: [
            {
              heading: 'Highlights',
              body: rng.pick([
                'Completed the firewall replacement.',
                'MFA now enforced for all staff.',
                'Migrated shared drives to SharePoint.',
              ]),
            },
            {
              heading: 'Recommendations',
              body: rng.pick([
                'Plan the laptop refresh for next fiscal year.',
                'Schedule a phishing simulation.',
                'Review backup retention.',
              ]),
            },
          ],
          metrics: {
            ticketsOpened: rng.int(20, 180),
            ticketsClosed: rng.int(20, 180),
            satisfaction: Math.round((4 + rng.next()) * 10) / 10,
          },
        },
      })
    }
  }
  return reports
}
