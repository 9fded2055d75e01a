/**
 * Reports: PATCH changes only what it is given, `version` +1 with `ETag` and `If-Match`, null
 * clears where the contract allows, and `companyName`/`reportTypeName` follow their ids.
 */
import { describe, expect, it } from 'vitest'
import type { SeedData } from '../../model/seed.js'
import type { ConformanceContext } from './context.js'
import { writableSeed } from './fixtures.js'
import type { Reply } from '../harness.js'
import * as model from '../../model/index.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * Registers the report tests.
 *
 * @example
 * reports(ctx)
 */
export function reports(ctx: ConformanceContext): void {
  describe('reports', () => {
    reportFieldsAndNames(ctx)

    reportContentAndVersions(ctx)
  })
}

/** Registers the tests of content replacement, If-Match, recomputed names and failed PATCHes. */
function reportContentAndVersions(ctx: ConformanceContext): void {
  it('replaces the content structure', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const content = { sections: [{ id: 's1', blocks: [{ type: 'chart', data: [1, 2, 3] }] }], theme: { dark: true } }
    const { status } = await h.call('PATCH', `/reports/${ctx.a.ids.report}`, {
      body: { content },
    })
    expect(status).toBe(200)
    expect((await ctx.store.get(model.reports, tenantId, ctx.a.ids.report))?.content).toEqual(content)
  })

  it('honours If-Match ("1" or 1) and answers another version with 412, changing nothing', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const path = `/reports/${ctx.a.ids.report}`
    const before = await ctx.store.get(model.reports, tenantId, ctx.a.ids.report)
    const stale = await h.call<Reply<'updateReport'>>('PATCH', path, {
      body: { title: 'Lost' },
      headers: { 'if-match': '"7"' },
    })
    expect([stale.status, stale.body.code]).toEqual([412, 'PRECONDITION_FAILED'])
    expect(await ctx.store.get(model.reports, tenantId, ctx.a.ids.report)).toEqual(before)
    expect(
      (await h.call<Reply<'updateReport'>>('PATCH', path, { body: { title: 'A' }, headers: { 'if-match': '"1"' } }))
        .body.data.version,
    ).toBe(2)
    expect(
      (await h.call<Reply<'updateReport'>>('PATCH', path, { body: { title: 'B' }, headers: { 'if-match': '2' } })).body
        .data.version,
    ).toBe(3)
    expect((await h.call('PATCH', path, { body: { title: 'C' }, headers: { 'if-match': '2' } })).status).toBe(412)
  })

  it('ignores seeded names and recomputes them', async () => {
    const seed = writableSeed('a')
    const reports = seed.reports!.map((report) => ({ ...report, companyName: 'Bogus', reportTypeName: 'Bogus' }))
    const { h } = await ctx.fresh({ ...seed, reports } as SeedData)
    const { body } = await h.call<Reply<'updateReport'>>('PATCH', `/reports/${ctx.a.ids.report}`, {
      body: { isShared: false },
    })
    expect([body.data.companyName, body.data.reportTypeName]).toEqual(['Acme', 'Executive'])
  })

  it('a failed PATCH changes nothing', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const before = await ctx.store.get(model.reports, tenantId, ctx.a.ids.report)
    for (const body of [
      { title: 'Lost', companyId: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f' },
      { title: 'Lost', reportTypeId: ctx.b.ids.reportTypes[0] },
      { title: 'Lost', dateStart: '2024-05-01', dateEnd: '2024-04-01' },
    ]) {
      expect((await h.call('PATCH', `/reports/${ctx.a.ids.report}`, { body })).status).toBe(400)
    }
    expect(await ctx.store.get(model.reports, tenantId, ctx.a.ids.report)).toEqual(before)
  })
}

/** Registers the tests of PATCHed fields, derived names and early-year dates. */
function reportFieldsAndNames(ctx: ConformanceContext): void {
  it('PATCH changes only the supplied fields, bumps version, sets ETag and derives the names', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const before = (await ctx.store.get(model.reports, tenantId, ctx.a.ids.report))!
    const result = await h.call<Reply<'updateReport'>>('PATCH', `/reports/${ctx.a.ids.report}`, {
      body: { title: 'February', status: 'published', isShared: true },
    })
    expect(result.status).toBe(200)
    expect(result.headers.get('etag')).toBe('"2"')
    const { content: _content, ...fields } = before
    expect(result.body.data).toEqual({
      ...fields,
      title: 'February',
      status: 'published',
      isShared: true,
      version: 2,
      companyName: 'Acme',
      reportTypeName: 'Executive',
      updatedAt: expect.stringMatching(ISO),
    })
    expect(result.body.data.updatedAt > before.updatedAt).toBe(true)
    const after = await ctx.store.get(model.reports, tenantId, ctx.a.ids.report)
    expect(after).toEqual({
      ...before,
      title: 'February',
      status: 'published',
      isShared: true,
      version: 2,
      updatedAt: result.body.data.updatedAt,
    })
  })

  it('companyName and reportTypeName follow their ids and become null when cleared', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const path = `/reports/${ctx.a.ids.report}`
    const moved = await h.call<Reply<'updateReport'>>('PATCH', path, {
      body: { companyId: ctx.a.ids.companies[2], reportTypeId: ctx.a.ids.reportTypes[1] },
    })
    expect(moved.body.data).toMatchObject({
      companyId: ctx.a.ids.companies[2],
      companyName: 'Zeta',
      reportTypeId: ctx.a.ids.reportTypes[1],
      reportTypeName: 'Technical',
      version: 2,
    })
    const cleared = await h.call<Reply<'updateReport'>>('PATCH', path, {
      body: { companyId: null, reportTypeId: null, description: null, dateStart: null, dateEnd: null },
    })
    expect(cleared.body.data).toMatchObject({
      companyId: null,
      companyName: null,
      reportTypeId: null,
      reportTypeName: null,
      description: null,
      dateStart: null,
      dateEnd: null,
      version: 3,
    })
    const untouched = await h.call<Reply<'updateReport'>>('PATCH', path, { body: { title: 'Still cleared' } })
    expect(untouched.body.data).toMatchObject({ companyName: null, reportTypeName: null, version: 4 })
  })

  it('takes report dates with years 0000-0099 as the years they are, and orders them', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const path = `/reports/${ctx.a.ids.report}`
    const early = await h.call<Reply<'updateReport'>>('PATCH', path, {
      body: { dateStart: '0050-01-01', dateEnd: '0068-02-15T12:40:58Z' },
    })
    expect(early.status).toBe(200)
    expect(early.body.data).toMatchObject({ dateStart: '0050-01-01', dateEnd: '0068-02-15T12:40:58Z' })
    expect(await ctx.store.get(model.reports, tenantId, ctx.a.ids.report)).toMatchObject({ dateStart: '0050-01-01' })
    const zero = await h.call<Reply<'updateReport'>>('PATCH', path, { body: { dateStart: '0000-01-01' } })
    expect(zero.status).toBe(200)
    // 0050 is before 1949: not taken as 1950.
    const reversed = await h.call('PATCH', path, { body: { dateStart: '0050-01-01', dateEnd: '1949-12-31' } })
    expect(reversed.status).toBe(200)
    const after = await h.call('PATCH', path, { body: { dateStart: '0050-01-02', dateEnd: '0050-01-01' } })
    expect(after.status).toBe(400)
    expect((await h.call('PATCH', path, { body: { dateStart: '0050-02-29' } })).status).toBe(400)
    expect((await h.call('PATCH', path, { body: { dateStart: '0048-02-29' } })).status).toBe(200)
  })

  it('refuses report date-times the parser cannot read as a format error on the field, not as an order', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const path = `/reports/${ctx.a.ids.report}`
    for (const dateStart of ['2026-11-11T09:17:48+03', '2026-11-11T09:17:48 +03:00', '2026-11-11 09:17:48Z']) {
      const refused = await h.call<{ details: { path: string; message: string }[] }>('PATCH', path, {
        body: { dateStart, dateEnd: '2026-12-01T00:00:00+03:00' },
      })
      expect([refused.status, refused.body.details.map((d) => d.path)], dateStart).toEqual([400, ['dateStart']])
      expect(refused.body.details[0]!.message).toMatch(/date-time/)
    }
    const read = await h.call('PATCH', path, {
      body: { dateStart: '2026-11-11T09:17:48+03:00', dateEnd: '2026-11-11T09:17:48+02:00' },
    })
    expect(read.status).toBe(200)
  })
}
