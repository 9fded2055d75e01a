/** Reports (versioned documents, replaced by compare-and-set on `version`) and report types. */
import type { ReportRecord, ReportType } from '../resources/reports/schema.js'
import { column, defineCollection } from './collection.js'

/**
 * The reports collection.
 *
 * @example
 * reports.columns[0]?.name // 'version'
 */
export const reports = defineCollection<ReportRecord>({
  name: 'reports',
  table: 'reports',
  columns: [column('version', 'integer', { field: 'version' })],
})

/**
 * The report types collection (documents only).
 *
 * @example
 * reportTypes.table // 'report_types'
 */
export const reportTypes = defineCollection<ReportType>({ name: 'reportTypes', table: 'report_types' })
