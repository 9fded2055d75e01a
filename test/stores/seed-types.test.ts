/**
 * `SeedData` is `v.InferInput` of the schemas `normalizeSeed` validates with: what the runtime
 * requires, TypeScript requires (checked by `npm run typecheck`, which covers this file: each
 * `@ts-expect-error` fails the type check once its record type-checks), and what it lets be left out,
 * TypeScript lets be left out.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { normalizeSeed, type SeedData, type SeedRecord } from 'tenant-public-api'

const at = '2026-01-02T03:04:05.000Z'
const id = '00000000-0000-4000-8000-000000000001'

describe('SeedData', () => {
  it('requires what the seed validation requires, at the top level', () => {
    const seed: SeedData = {
      // @ts-expect-error a ticket needs its createdAt
      tickets: [{ id: 't-1', ticketNumber: 'T-1', title: 'VPN drops', isClosed: false, provider: 'psa_a' }],
    }
    expect(() => normalizeSeed(seed)).toThrow(/^Invalid seed tickets\[0\]\.createdAt: /)
  })

  it('requires what the seed validation requires, in nested parts', () => {
    const ticket = { id: 't-1', ticketNumber: 'T-1', title: 'VPN drops', isClosed: false, provider: 'psa_a' as const }
    const withNote: SeedData = {
      // @ts-expect-error a note needs its text
      tickets: [{ ...ticket, createdAt: at, notes: [{ id: 'n-1', isInternal: false, createdAt: at }] }],
    }
    expect(() => normalizeSeed(withNote)).toThrow(/^Invalid seed tickets\[0\]\.notes\.0\.text: /)

    const budget = {
      id,
      title: 'FY26',
      fiscalYear: 2026,
      periodType: 'Annual',
      status: 'Draft',
      currency: 'EUR',
    } as const
    const item = { id, description: 'Laptops', quantity: 2, unitPrice: 900, recurrence: 'One-Time', termMonths: 12 }
    const withItem: SeedData = {
      budgets: [
        {
          ...budget,
          createdAt: at,
          updatedAt: at,
          // @ts-expect-error a line item needs its type, status, currency and timestamps
          lineItems: [{ ...item, recurrence: 'One-Time' }],
        },
      ],
    }
    expect(() => normalizeSeed(withItem)).toThrow(/^Invalid seed budgets\[0\]\.lineItems\[0\]\.type: /)
  })

  it('lets nullable fields and defaulted parts be left out, as the seed validation does', () => {
    const company: SeedRecord<'companies'> = { id, name: 'Acme', status: 'active', createdAt: at, updatedAt: at }
    expect(normalizeSeed({ companies: [company] }).companies[0]).toMatchObject({ domain: null, website: null })
    expectTypeOf<SeedRecord<'companies'>>().toEqualTypeOf<{
      id: string
      name: string
      status: string
      createdAt: string
      updatedAt: string
      domain?: string | null | undefined
      employeeCount?: number | null | undefined
      industry?: string | null | undefined
      website?: string | null | undefined
    }>()
    expectTypeOf<SeedRecord<'npsSurveys'>['responses']>().toEqualTypeOf<number[] | undefined>()
    expectTypeOf<NonNullable<SeedData['budgets']>[number]['lineItems']>().toEqualTypeOf<
      SeedRecord<'budgetLineItems'>[] | undefined
    >()
  })
})
