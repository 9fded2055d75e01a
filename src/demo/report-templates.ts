/** The demo tenant's report templates: a block layout per report type, some with an executive variant. */
import type { ReportTemplateRecord, TemplateStructure } from '../model/report-templates.js'
import type { ReportType } from '../model/reports.js'
import type { Sfc32 } from './prng.js'
import { between, daysAgo, iso } from './time.js'
import { DEMO_MSP } from './company-profiles.js'

const TEMPLATE_BLOCKS: Record<
  string,
  ReadonlyArray<[type: string, params: Record<string, unknown>, w: number, h: number]>
> = {
  'Quarterly Business Review': [
    ['heading', { text: 'Quarterly Business Review' }, 12, 1],
    ['kpi', { metric: 'tickets_closed', period: 'quarter' }, 4, 2],
    ['kpi', { metric: 'avg_resolution_hours', period: 'quarter' }, 4, 2],
    ['kpi', { metric: 'csat', period: 'quarter' }, 4, 2],
    ['ticket_chart', { groupBy: 'categoryName', chart: 'bar' }, 6, 4],
    ['budget_summary', { fiscalYear: 'current' }, 6, 4],
    ['goal_progress', { status: ['On Track', 'At Risk'] }, 12, 3],
  ],
  'Monthly Service Report': [
    ['heading', { text: 'Service Report' }, 12, 1],
    ['ticket_table', { columns: ['ticketNumber', 'title', 'status', 'priority'], limit: 20 }, 12, 6],
    ['ticket_chart', { groupBy: 'priority', chart: 'donut' }, 6, 4],
    ['text', { markdown: 'Highlights and notes for the month.' }, 6, 4],
  ],
  'Security Assessment': [
    ['heading', { text: 'Security Assessment' }, 12, 1],
    ['compliance_score', { framework: 'CIS Controls v8' }, 6, 3],
    ['compliance_findings', { onlyFlagged: true }, 6, 6],
    ['recommendations', { source: 'planner', itemType: 'Security Initiative' }, 12, 4],
  ],
  'Compliance Summary': [
    ['heading', { text: 'Compliance Summary' }, 12, 1],
    ['compliance_score', { framework: 'HIPAA' }, 12, 3],
    ['compliance_findings', { onlyFlagged: false }, 12, 8],
  ],
  'Asset Lifecycle Report': [
    ['heading', { text: 'Asset Lifecycle' }, 12, 1],
    ['device_table', { filter: 'warranty_expiring', days: 180 }, 12, 6],
    ['budget_summary', { fiscalYear: 'next', types: ['Hardware'] }, 12, 3],
  ],
  'Strategic Roadmap': [
    ['heading', { text: 'Technology Roadmap' }, 12, 1],
    ['roadmap', { quarters: 4 }, 12, 6],
    ['budget_summary', { fiscalYear: 'next' }, 12, 3],
  ],
}

/** Report templates with their block layouts. */
export function makeReportTemplates(rng: Sfc32, types: readonly ReportType[]): ReportTemplateRecord[] {
  const templates: ReportTemplateRecord[] = []
  for (const type of types) {
    const variants =
      type.name === 'Quarterly Business Review' || type.name === 'Monthly Service Report' ? ['', ' (Executive)'] : ['']
    for (const variant of variants) {
      const blocks = (TEMPLATE_BLOCKS[type.name] ?? []).filter((_, i) => variant === '' || i < 4)
      let y = 0
      let x = 0
      let rowHeight = 0
      const structure: TemplateStructure = {
        blocks: blocks.map(([blockType, params, w, h]) => {
          if (x + w > 12) {
            y += rowHeight
            x = 0
            rowHeight = 0
          }
          const layout = { x, y, w, h }
          x += w
          rowHeight = Math.max(rowHeight, h)
          return { id: rng.uuid(), type: blockType, params, layout }
        }),
        metadata: {
          title: `${type.name}${variant}`,
          subtitle: variant ? 'One-page summary for leadership' : null,
          showHeader: true,
          showFooter: true,
          showPageNumbers: variant === '',
        },
        pagePreset: rng.pick(['letter-portrait', 'letter-landscape', 'a4-portrait']),
        displaySettings: {
          pageSize: 'Letter',
          orientation: rng.pick(['portrait', 'landscape']),
          margins: { top: 36, right: 36, bottom: 36, left: 36 },
        },
      }
      const createdAt = between(rng, daysAgo(900), daysAgo(60))
      templates.push({
        id: rng.uuid(),
        name: `${type.name}${variant}`,
        description: `Standard ${type.name.toLowerCase()} layout used by ${DEMO_MSP.name}.`,
        isShared: variant === '' || rng.chance(0.5),
        reportTypeId: type.id,
        createdAt: iso(createdAt),
        updatedAt: iso(between(rng, createdAt, daysAgo(5))),
        templateStructure: structure,
      })
    }
  }
  return templates
}
