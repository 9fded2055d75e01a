/**
 * Every tool called at least once on the demo tenant (`createTestApi`, `createDemoData()`), through
 * the SDK's client: the samples of the conformance suite, with the ids of the demo data and the
 * webhook endpoint the `createWebhookEndpoint` call makes. Each answers its REST body, as
 * `structuredContent` and as the text block.
 */
import { describe, expect, it } from 'vitest'
import { operations } from 'tenant-public-api'
import { createDemoData, createTestApi } from 'tenant-public-api/testing'
import type { FixtureIds } from '../../src/testing/conformance/fixtures.js'
import { mcpClient, sampleArguments, type ToolResult } from './support.js'

/** The ids the samples address, taken from the demo data set. */
function demoIds(): FixtureIds {
  const demo = createDemoData()
  const ids = <T extends { id: string }>(records: readonly T[] | undefined) =>
    (records ?? []).map((record) => record.id)
  const surveys = ids(demo.npsSurveys)
  return {
    companies: ids(demo.companies),
    tickets: ids(demo.tickets),
    ticketNumber: demo.tickets[0]!.ticketNumber,
    users: ids(demo.users),
    roles: [],
    complianceTemplates: ids(demo.complianceTemplates),
    complianceGroups: [],
    complianceCheck: ids(demo.complianceChecks)[0]!,
    reportTemplates: ids(demo.reportTemplates),
    reportTypes: ids(demo.reportTypes),
    report: ids(demo.reports)[0]!,
    courses: ids(demo.trainingCourses),
    enrollments: ids(demo.trainingEnrollments),
    goals: ids(demo.goals),
    plannerTypes: ids(demo.plannerItemTypes),
    budget: ids(demo.budgets)[0]!,
    emptyBudget: ids(demo.budgets)[1]!,
    rule: ids(demo.automationRules)[0]!,
    npsSurveys: { full: surveys[0]!, empty: surveys[1]!, noInvites: surveys[2]!, half: surveys[3]! },
    meetingTypes: ids(demo.meetingTypes),
    recordIds: (key) => {
      const records: readonly { id: string }[] | undefined = demo[key]
      return ids(records).sort()
    },
  }
}

describe('MCP on the demo tenant', () => {
  it('calls every tool at least once, each answering its REST body', async () => {
    const { api, keys } = await createTestApi({ apiOptions: { mcp: true } })
    const client = await mcpClient('http://demo.test/api/public/v1/mcp', keys.all, api)
    const ids = demoIds()
    // The endpoint the webhook tools address is the one this call makes; deletes go last.
    const created = (await client.callTool({
      name: 'createWebhookEndpoint',
      arguments: sampleArguments('createWebhookEndpoint', ids),
    })) as ToolResult
    expect(created.isError).toBe(false)
    const endpoint = (created.structuredContent as { data: { id: string } }).data.id
    const called = ['createWebhookEndpoint']
    const rest = operations.filter((operation) => operation.id !== 'createWebhookEndpoint')
    const order = [...rest].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    for (const operation of order) {
      const args = sampleArguments(operation.id, ids)
      if (operation.path.startsWith('/webhook-endpoints/')) args.id = endpoint
      const result = (await client.callTool({ name: operation.id, arguments: args })) as ToolResult
      expect([operation.id, result.isError, result.structuredContent?.code]).toEqual([operation.id, false, undefined])
      expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent)
      called.push(operation.id)
    }
    expect(called.sort()).toEqual(operations.map((operation) => operation.id).sort())
    await client.close()
  })
})
