/**
 * The read-only resources: exact shapes as seeded, `enrollmentCount` (and its change after a
 * DELETE), NPS statistics, goal tasks/updates order, report template structure on request.
 */
import { describe, expect, it } from 'vitest'
import type { SeedData } from '../../model/seed.js'
import type { ConformanceContext } from './context.js'
import { at, fixtureSeed, FULL_SURVEY_STATISTICS, writableSeed } from './fixtures.js'
import type { Reply } from '../harness.js'

/**
 * Registers the read-resource tests.
 *
 * @example
 * readResources(ctx)
 */
export function readResources(ctx: ConformanceContext): void {
  describe('read resources', () => {
    complianceReads(ctx)

    trainingReads(ctx)

    goalReads(ctx)

    npsSurveyReads(ctx)

    reportTemplatesAndSeededShapes(ctx)
  })
}

/** Registers the compliance reads: a template exactly as seeded, a check with its status object. */
function complianceReads(ctx: ConformanceContext): void {
  it('returns a compliance template exactly as seeded', async () => {
    const seeded = fixtureSeed('a').complianceTemplates!.find((t) => t.id === ctx.a.ids.complianceTemplates[3])!
    const { body } = await ctx.a.h.call<Reply<'getComplianceTemplate'>>(
      'GET',
      `/compliance/templates/${ctx.a.ids.complianceTemplates[3]}`,
    )
    expect(body.data).toEqual({
      description: null,
      howToCheck: null,
      whyImportant: null,
      frequency: null,
      remediation: null,
      remediationImpact: null,
      references: null,
      ...seeded,
    })
  })

  it('returns an assigned compliance check with its status object', async () => {
    const { body } = await ctx.a.h.call<Reply<'getComplianceCheck'>>(
      'GET',
      `/compliance/checks/${ctx.a.ids.complianceCheck}`,
    )
    expect(body.data).toMatchObject({
      id: ctx.a.ids.complianceCheck,
      checkId: ctx.a.ids.complianceTemplates[0],
      title: 'Backups verified',
      flagged: false,
      dueDate: null,
      deviceId: null,
    })
    expect(body.data.status).toEqual({
      id: expect.any(String),
      name: 'Passed',
      color: '#0a0',
      isPositive: true,
      isComplete: true,
    })
  })
}

/** Registers the training reads: a course’s enrollmentCount, seeded or after a DELETE, and the DELETE itself. */
function trainingReads(ctx: ConformanceContext): void {
  it('counts a course’s enrollments', async () => {
    const counts = []
    for (const id of ctx.a.ids.courses)
      counts.push(
        (await ctx.a.h.call<Reply<'getTrainingCourse'>>('GET', `/training/courses/${id}`)).body.data.enrollmentCount,
      )
    expect(counts).toEqual([3, 2, 1])
    const { body } = await ctx.a.h.call<Reply<'getTrainingCourse'>>('GET', `/training/courses/${ctx.a.ids.courses[0]}`)
    expect(body.data).toMatchObject({
      title: 'Security basics',
      isMandatory: true,
      company: { id: ctx.a.ids.companies[0], name: 'Acme' },
      metadata: { level: 1 },
      scormUrl: null,
    })
  })

  it('DELETE removes an enrollment: message, then 404, gone from the list, enrollmentCount down', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const target = ctx.a.ids.enrollments[1]!
    const deleted = await h.call<Reply<'deleteTrainingEnrollment'>>('DELETE', `/training/enrollments/${target}`)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ message: 'Enrollment deleted' })
    const again = await h.call<Reply<'deleteTrainingEnrollment'>>('DELETE', `/training/enrollments/${target}`)
    expect([again.status, again.body.code]).toEqual([404, 'NOT_FOUND'])
    const list = await h.call<Reply<'listTrainingEnrollments'>>('GET', '/training/enrollments?limit=100')
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(target)
    expect(list.body.pagination.totalCount).toBe(5)
    expect(
      (await h.call<Reply<'getTrainingCourse'>>('GET', `/training/courses/${ctx.a.ids.courses[0]}`)).body.data
        .enrollmentCount,
    ).toBe(2)
  })

  it('ignores a seeded enrollmentCount', async () => {
    const seed = writableSeed('a')
    const trainingCourses = seed.trainingCourses!.map((course) => ({ ...course, enrollmentCount: 99 }))
    const { h } = await ctx.fresh({ ...seed, trainingCourses } as SeedData)
    expect(
      (await h.call<Reply<'getTrainingCourse'>>('GET', `/training/courses/${ctx.a.ids.courses[2]}`)).body.data
        .enrollmentCount,
    ).toBe(1)
  })
}

/** Registers the goal reads: tasks oldest first, updates newest first, a uuid id in upper case. */
function goalReads(ctx: ConformanceContext): void {
  it('returns a goal with tasks oldest first and updates newest first', async () => {
    const { body } = await ctx.a.h.call<Reply<'getGoal'>>('GET', `/goals/${ctx.a.ids.goals[0]}`)
    expect(body.data.tasks.map((t: { title: string }) => t.title)).toEqual(['First task', 'Second task', 'Third task'])
    expect(body.data.updates.map((u: { updateText: string }) => u.updateText)).toEqual(['Newest', 'Middle', 'Oldest'])
    expect(body.data.tasks[0]).toEqual({
      id: expect.any(String),
      title: 'First task',
      description: null,
      isCompleted: true,
      dueDate: at(31),
      createdAt: at(2),
    })
    expect(body.data).toMatchObject({
      title: 'Goal 1',
      progressPercentage: 25,
      status: null,
      company: { id: ctx.a.ids.companies[0], name: 'Acme' },
    })
  })

  it('finds a uuid-identified record by its id in upper case', async () => {
    const { status, body } = await ctx.a.h.call<Reply<'getGoal'>>('GET', `/goals/${ctx.a.ids.goals[1]!.toUpperCase()}`)
    expect(status).toBe(200)
    expect(body.data.id).toBe(ctx.a.ids.goals[1])
  })
}

/** Registers the NPS survey reads: statistics computed (and rounded), never taken from a seed. */
function npsSurveyReads(ctx: ConformanceContext): void {
  it('computes NPS statistics (rounded npsScore, 2-decimal averageScore and responseRate)', async () => {
    const get = async (id: string) => (await ctx.a.h.call<Reply<'getNpsSurvey'>>('GET', `/surveys/nps/${id}`)).body.data
    const full = await get(ctx.a.ids.npsSurveys.full)
    expect([full.responseCount, full.inviteCount]).toEqual([7, 9])
    expect(full.statistics).toEqual(FULL_SURVEY_STATISTICS)
    const half = await get(ctx.a.ids.npsSurveys.half)
    expect(half.statistics).toEqual({
      npsScore: 13,
      averageScore: 7.25,
      responseRate: 100,
      promotersCount: 3,
      passivesCount: 3,
      detractorsCount: 2,
    })
  })

  it('answers zero NPS statistics without responses, and responseRate 0 without invites', async () => {
    const empty = (await ctx.a.h.call<Reply<'getNpsSurvey'>>('GET', `/surveys/nps/${ctx.a.ids.npsSurveys.empty}`)).body
      .data
    expect(empty.responseCount).toBe(0)
    expect(empty.statistics).toEqual({
      npsScore: 0,
      averageScore: 0,
      responseRate: 0,
      promotersCount: 0,
      passivesCount: 0,
      detractorsCount: 0,
    })
    const uninvited = (
      await ctx.a.h.call<Reply<'getNpsSurvey'>>('GET', `/surveys/nps/${ctx.a.ids.npsSurveys.noInvites}`)
    ).body.data
    expect(uninvited.statistics).toEqual({
      npsScore: 0,
      averageScore: 6,
      responseRate: 0,
      promotersCount: 1,
      passivesCount: 0,
      detractorsCount: 1,
    })
  })

  it('ignores seeded NPS statistics and responseCount', async () => {
    const survey = {
      ...fixtureSeed('a').npsSurveys![0]!,
      responseCount: 500,
      statistics: {
        npsScore: 99,
        averageScore: 1,
        responseRate: 1,
        promotersCount: 1,
        passivesCount: 1,
        detractorsCount: 1,
      },
    }
    const { h } = await ctx.fresh({ npsSurveys: [survey] } as SeedData)
    const { body } = await h.call<Reply<'getNpsSurvey'>>('GET', `/surveys/nps/${ctx.a.ids.npsSurveys.full}`)
    expect(body.data.responseCount).toBe(7)
    expect(body.data.statistics.npsScore).toBe(14)
  })

  it('treats a survey seeded without responses as having none', async () => {
    const { responses: _responses, ...survey } = fixtureSeed('a').npsSurveys![0]!
    const { h } = await ctx.fresh({ npsSurveys: [{ ...survey, inviteCount: 4 }] })
    const { status, body } = await h.call<Reply<'getNpsSurvey'>>('GET', `/surveys/nps/${ctx.a.ids.npsSurveys.full}`)
    expect(status).toBe(200)
    expect([body.data.responseCount, body.data.statistics.responseRate, body.data.statistics.npsScore]).toEqual([
      0, 0, 0,
    ])
  })
}

/**
 * Registers the reads of a report template (its structure only on request) and of the planner item
 * types, meeting types and companies in their seeded shapes.
 */
function reportTemplatesAndSeededShapes(ctx: ConformanceContext): void {
  it('returns a report template with templateStructure only when includeStructure=true', async () => {
    const path = `/report-templates/${ctx.a.ids.reportTemplates[0]}`
    for (const query of ['', '?includeStructure=false']) {
      const { body } = await ctx.a.h.call<Reply<'getReportTemplate'>>('GET', `${path}${query}`)
      expect('templateStructure' in body.data, query).toBe(false)
      expect(body.data).toMatchObject({
        name: 'Quarterly review',
        isShared: true,
        reportTypeId: ctx.a.ids.reportTypes[0],
      })
    }
    const { body } = await ctx.a.h.call<Reply<'getReportTemplate'>>('GET', `${path}?includeStructure=true`)
    expect(body.data.templateStructure).toEqual(
      fixtureSeed('a').reportTemplates!.find((t) => t.id === ctx.a.ids.reportTemplates[0])!.templateStructure,
    )
    expect(body.data.templateStructure?.blocks).toEqual([
      { id: 'b1', type: 'text', params: { text: 'Hello' }, layout: { x: 0, y: 0, w: 6, h: 2 } },
    ])
    expect(body.data.templateStructure?.metadata).toEqual({
      title: 'Quarterly',
      subtitle: null,
      showHeader: true,
      showFooter: false,
      showPageNumbers: true,
    })
    const bare = await ctx.a.h.call<Reply<'getReportTemplate'>>(
      'GET',
      `/report-templates/${ctx.a.ids.reportTemplates[1]}?includeStructure=true`,
    )
    expect(bare.body.data.templateStructure).toBeNull()
  })

  it('lists report templates without their structure', async () => {
    const { body } = await ctx.a.h.call<Reply<'listReportTemplates'>>('GET', '/report-templates?limit=100')
    for (const template of body.data) expect('templateStructure' in template).toBe(false)
  })

  it('returns a planner item type exactly as seeded', async () => {
    const { body } = await ctx.a.h.call<Reply<'getPlannerItemType'>>(
      'GET',
      `/planner/types/${ctx.a.ids.plannerTypes[0]}`,
    )
    expect(body.data).toEqual({
      id: ctx.a.ids.plannerTypes[0],
      name: 'Laptop refresh',
      description: null,
      isSystem: true,
      budgetCategory: 'Hardware',
      createdAt: at(1),
      updatedAt: at(1),
    })
  })

  it('lists meeting types and companies in their seeded shapes', async () => {
    const types = (await ctx.a.h.call<Reply<'listMeetingTypes'>>('GET', '/calendar/types?limit=100')).body.data
    expect(types.find((t: { id: string }) => t.id === ctx.a.ids.meetingTypes[0])).toEqual({
      id: ctx.a.ids.meetingTypes[0],
      name: 'Review',
      color: '#ff0000',
      isInternal: true,
      orderIndex: 2,
      createdAt: at(1),
      updatedAt: at(1),
    })
    const companies = (await ctx.a.h.call<Reply<'listCompanies'>>('GET', '/companies?limit=100')).body.data
    expect(companies.find((c: { id: string }) => c.id === ctx.a.ids.companies[0])).toEqual({
      id: ctx.a.ids.companies[0],
      name: 'Acme',
      domain: 'acme.example',
      status: 'active',
      employeeCount: 50,
      industry: null,
      website: null,
      createdAt: at(1),
      updatedAt: at(5),
    })
  })
}
