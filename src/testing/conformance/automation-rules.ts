/**
 * Automation rules: defaults and generated ids on create, `createdBy`/`updatedBy` from the key's
 * actor, `version` from 1 and +1 per PATCH with `ETag`, `If-Match`, only supplied fields changing,
 * `companies` following `companyIds`, and failed requests changing nothing.
 */
import { describe, expect, it } from 'vitest'
import type { SeedData } from '../../model/seed.js'
import { testKey, testKeyResolver } from '../keys.js'
import type { ConformanceContext } from './context.js'
import { MINIMAL_RULE, writableSeed } from './fixtures.js'
import type { Reply } from '../harness.js'
import * as model from '../../model/index.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * A rule body with nested groups, conditions and actions that leave out some ids, orders and
 * configs (one id given), and an aggregation config.
 */
const RULE_WITH_PARTS = {
  ...MINIMAL_RULE,
  isActive: true,
  conditions: [
    {
      logic: 'AND',
      conditions: [
        { field: 'a', operator: 'eq', value: 1 },
        { id: 'keep-me', field: 'b', operator: 'ne' },
      ],
      groups: [{ logic: 'OR', conditions: [{ field: 'c', operator: 'gt', value: [1, 2] }] }],
    },
  ],
  actions: [
    { actionType: 'notify' },
    { id: 'act-2', actionType: 'ticket', config: { board: 'ops' }, requiresApproval: true },
    { actionType: 'email', order: 7 },
  ],
  aggregationConfig: {
    enabled: true,
    groupBy: 'company',
    minBatchSize: 2,
    combinedActionConfig: { titleTemplate: 'T' },
  },
}

/**
 * The actor the test keys write as.
 *
 * @example
 * expect(rule.createdBy).toEqual(await testActor())
 */
export async function testActor(): Promise<{ id: string; name: string }> {
  const principal = await testKeyResolver()(testKey('any'), new Request('http://actor.test/'))
  return principal!.actor
}

/**
 * Registers the automation rule tests.
 *
 * @example
 * automationRules(ctx)
 */
export function automationRules(ctx: ConformanceContext): void {
  describe('automation rules', () => {
    ruleCreation(ctx)

    ruleUpdates(ctx)

    writeChecks(ctx)
  })
}

/** Registers the tests of creating a rule: the defaults, version 1, the actor, and the ids it generates. */
function ruleCreation(ctx: ConformanceContext): void {
  it('creates a rule with the defaults, version 1, ETag "1", Location and the key’s actor', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const actor = await testActor()
    const result = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', { body: MINIMAL_RULE })
    expect(result.status).toBe(201)
    const rule = result.body.data
    expect(rule).toEqual({
      id: expect.any(String),
      name: 'Minimal rule',
      description: null,
      isActive: false,
      priority: 0,
      scopeType: 'tenant',
      companyIds: [],
      triggerType: 'scheduled',
      entityType: 'ticket',
      triggerConfig: { cron: '0 * * * *' },
      conditions: [],
      actions: [],
      aggregationConfig: null,
      createdBy: actor,
      updatedBy: actor,
      createdAt: expect.stringMatching(ISO),
      updatedAt: rule.createdAt,
      version: 1,
      companies: [],
    })
    expect(result.headers.get('etag')).toBe('"1"')
    expect(result.headers.get('location')).toMatch(new RegExp(`/automation/${rule.id}$`))
    const { companies: _companies, ...record } = rule
    expect(await ctx.store.get(model.automationRules, tenantId, rule.id)).toEqual(record)
  })

  it('generates missing ids of groups, conditions and actions; action order defaults to its index', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const body = RULE_WITH_PARTS
    const { status, body: response } = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', { body })
    expect(status).toBe(201)
    const rule = response.data
    expect(rule.isActive).toBe(true)
    const group = rule.conditions[0]!
    const ids = [
      group.id,
      group.conditions[0]?.id,
      group.groups[0]?.id,
      group.groups[0]?.conditions[0]?.id,
      rule.actions[0]?.id,
      rule.actions[2]?.id,
    ]
    for (const id of ids) expect(typeof id === 'string' && id.length > 0).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(group.conditions[1]).toEqual({ id: 'keep-me', field: 'b', operator: 'ne', value: null })
    expect(group.groups[0]).toMatchObject({
      logic: 'OR',
      groups: [],
      conditions: [{ field: 'c', operator: 'gt', value: [1, 2] }],
    })
    expect(
      rule.actions.map((a: { order: number; requiresApproval: boolean; config: unknown }) => [
        a.order,
        a.requiresApproval,
        a.config,
      ]),
    ).toEqual([
      [0, false, {}],
      [1, true, { board: 'ops' }],
      [7, false, {}],
    ])
    expect(rule.actions[1]?.id).toBe('act-2')
    expect(rule.aggregationConfig).toEqual(body.aggregationConfig)
  })
}

/** Registers the tests of PATCH: only the supplied fields change, version +1 each, parts replaced. */
function ruleUpdates(ctx: ConformanceContext): void {
  it('PATCH changes only the supplied fields, bumps version by 1, sets ETag, updatedBy and updatedAt', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const actor = await testActor()
    const before = (await ctx.store.get(model.automationRules, tenantId, ctx.a.ids.rule))!
    const result = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { name: 'Renamed', isActive: false },
    })
    expect(result.status).toBe(200)
    expect(result.headers.get('etag')).toBe('"4"')
    const { companies, ...record } = result.body.data
    expect(record).toEqual({
      ...before,
      name: 'Renamed',
      isActive: false,
      version: 4,
      updatedBy: actor,
      updatedAt: expect.stringMatching(ISO),
    })
    expect(record.createdBy).toEqual(before.createdBy)
    expect(record.updatedAt > before.updatedAt).toBe(true)
    expect(companies).toEqual([
      { id: ctx.a.ids.companies[2], name: 'Zeta' },
      { id: ctx.a.ids.companies[0], name: 'Acme' },
    ])
    expect(await ctx.store.get(model.automationRules, tenantId, ctx.a.ids.rule)).toEqual(record)
    const again = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { priority: 50 },
    })
    expect([
      again.body.data.version,
      again.headers.get('etag'),
      again.body.data.name,
      again.body.data.priority,
    ]).toEqual([5, '"5"', 'Renamed', 50])
  })

  it('starts a created rule at version 1 and adds 1 per PATCH', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const created = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', { body: MINIMAL_RULE })
    const versions = [created.body.data.version]
    for (let i = 0; i < 3; i++)
      versions.push(
        (
          await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${created.body.data.id}`, {
            body: { priority: i },
          })
        ).body.data.version,
      )
    expect(versions).toEqual([1, 2, 3, 4])
  })

  it('replaces conditions and actions on PATCH, generating missing ids', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const { body } = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: {
        conditions: [{ logic: 'OR', conditions: [{ field: 'x', operator: 'eq', value: 'y' }] }],
        actions: [{ actionType: 'notify' }, { actionType: 'email' }],
      },
    })
    expect(body.data.conditions).toHaveLength(1)
    expect(body.data.conditions[0]).toMatchObject({
      logic: 'OR',
      groups: [],
      conditions: [{ field: 'x', operator: 'eq', value: 'y' }],
    })
    expect(typeof body.data.conditions[0]?.id).toBe('string')
    expect(body.data.actions.map((a: { order: number }) => a.order)).toEqual([0, 1])
  })
}

/**
 * Registers the checks around a write: If-Match, `companies` following `companyIds` (upper-case ids
 * kept lower-case, seeded companies recomputed), and failed writes changing nothing.
 */
function writeChecks(ctx: ConformanceContext): void {
  it('honours If-Match: the current version ("3" or 3) passes, another is 412 and changes nothing', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const path = `/automation/${ctx.a.ids.rule}`
    const stale = await h.call<Reply<'updateAutomationRule'>>('PATCH', path, {
      body: { priority: 1 },
      headers: { 'if-match': '"2"' },
    })
    expect(stale.status).toBe(412)
    expect(stale.body.code).toBe('PRECONDITION_FAILED')
    expect((await ctx.store.get(model.automationRules, tenantId, ctx.a.ids.rule))?.version).toBe(3)
    const quoted = await h.call<Reply<'updateAutomationRule'>>('PATCH', path, {
      body: { priority: 1 },
      headers: { 'if-match': '"3"' },
    })
    expect([quoted.status, quoted.body.data.version]).toEqual([200, 4])
    const bare = await h.call<Reply<'updateAutomationRule'>>('PATCH', path, {
      body: { priority: 2 },
      headers: { 'if-match': '4' },
    })
    expect([bare.status, bare.body.data.version]).toEqual([200, 5])
    const old = await h.call('PATCH', path, { body: { priority: 3 }, headers: { 'if-match': '4' } })
    expect(old.status).toBe(412)
    expect((await ctx.store.get(model.automationRules, tenantId, ctx.a.ids.rule))?.priority).toBe(2)
  })

  it('companies follows companyIds (in their order, duplicates once)', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const ids = ctx.a.ids.companies
    const { body } = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { companyIds: [ids[4], ids[3], ids[4]] },
    })
    expect(body.data.companyIds).toEqual([ids[4], ids[3]])
    expect(body.data.companies).toEqual([
      { id: ids[4], name: '😀 Smile' },
      { id: ids[3], name: 'Éclair' },
    ])
    const tenant = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { scopeType: 'tenant', companyIds: [] },
    })
    expect([tenant.body.data.companies, tenant.body.data.companyIds]).toEqual([[], []])
  })

  it('accepts upper-case company ids and stores them lower-case', async () => {
    const { h } = await ctx.fresh(writableSeed('a'))
    const { status, body } = await h.call<Reply<'createAutomationRule'>>('POST', '/automation', {
      body: { ...MINIMAL_RULE, scopeType: 'company', companyIds: [ctx.a.ids.companies[0]!.toUpperCase()] },
    })
    expect(status).toBe(201)
    expect(body.data.companyIds).toEqual([ctx.a.ids.companies[0]])
  })

  it('ignores seeded companies and recomputes them from companyIds', async () => {
    const seed = writableSeed('a')
    const rules = seed.automationRules!.map((rule) => ({ ...rule, companies: [{ id: 'bogus', name: 'Bogus' }] }))
    const { h } = await ctx.fresh({ ...seed, automationRules: rules } as SeedData)
    const { body } = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { description: 'x' },
    })
    expect(body.data.companies.map((c) => c.name)).toEqual(['Zeta', 'Acme'])
  })

  it('a failed PATCH or create changes nothing', async () => {
    const { tenantId, h } = await ctx.fresh(writableSeed('a'))
    const before = await ctx.store.get(model.automationRules, tenantId, ctx.a.ids.rule)
    const unknownCompany = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { name: 'Lost', companyIds: ['0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'] },
    })
    expect(unknownCompany.status).toBe(400)
    const badScope = await h.call<Reply<'updateAutomationRule'>>('PATCH', `/automation/${ctx.a.ids.rule}`, {
      body: { name: 'Lost', scopeType: 'tenant' },
    })
    expect(badScope.status).toBe(400)
    expect(await ctx.store.get(model.automationRules, tenantId, ctx.a.ids.rule)).toEqual(before)
  })
}
