/** The demo tenant's customer companies (with their contacts) and its own staff. */
import type { Company } from '../model/companies.js'
import type { User } from '../model/users.js'
import type { Sfc32 } from './prng.js'
import type { DemoContact, Provider, TicketCompany } from './tickets.js'
import { between, daysAgo, DAY, iso } from './time.js'
import { COMPANY_PROFILES, COMPANY_WORDS, type CompanyProfile, DEMO_MSP } from './company-profiles.js'
import { emailLocal, FIRST_NAMES, LAST_NAMES } from './person-names.js'

/** A customer company with what the rest of the generator needs about it. */
export interface DemoCompany extends TicketCompany {
  record: Company
  profile: CompanyProfile
  active: boolean
}

const PROVIDER_ORDER: readonly Provider[] = ['psa_a', 'psa_b', 'psa_c', 'psa_d']
const PROVIDER_WEIGHTS = [4, 3, 2, 1]

function shuffled<T>(rng: Sfc32, items: readonly T[]): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

/** Hand-written profiles first (in a seed-dependent order), then composed ones. */
function companyProfiles(rng: Sfc32, count: number): CompanyProfile[] {
  const profiles = shuffled(rng, COMPANY_PROFILES).slice(0, count)
  const combos = shuffled(
    rng,
    COMPANY_WORDS.first.flatMap((first) => COMPANY_WORDS.second.map(([noun, industry]) => ({ first, noun, industry }))),
  )
  for (let i = 0; profiles.length < count; i++) {
    const combo = combos[i % combos.length] as (typeof combos)[number]
    const round = Math.floor(i / combos.length)
    const name = `${combo.first} ${combo.noun}${round > 0 ? ` ${round + 1}` : ''}`
    const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '')}.com`
    profiles.push({ name, domain, industry: combo.industry, employees: rng.int(12, 300) })
  }
  return profiles
}

function contactsOf(rng: Sfc32, domain: string, employees: number): DemoContact[] {
  const count = Math.min(20, Math.max(3, 3 + Math.floor(employees / 12)))
  const seen = new Set<string>()
  const contacts: DemoContact[] = []
  while (contacts.length < count) {
    const first = rng.pick(FIRST_NAMES)
    const last = rng.pick(LAST_NAMES)
    let local = emailLocal(first, last)
    for (let n = 2; seen.has(local); n++) local = `${emailLocal(first, last)}${n}`
    seen.add(local)
    contacts.push({ id: rng.uuid(), fullName: `${first} ${last}`, email: `${local}@${domain}` })
  }
  return contacts
}

/**
 * `count` customer companies: mostly active, a few inactive or onboarding, each mirrored from one
 * PSA (the first four cover all four), each with a roster of contacts.
 */
export function makeCompanies(rng: Sfc32, count: number): DemoCompany[] {
  return companyProfiles(rng, count).map((profile, index) => {
    const status = index === 0 || rng.chance(0.88) ? 'active' : rng.pick(['inactive', 'onboarding'])
    const provider =
      index < PROVIDER_ORDER.length
        ? (PROVIDER_ORDER[index] as Provider)
        : rng.weighted(PROVIDER_ORDER, PROVIDER_WEIGHTS)
    // Customers are older than the oldest ticket; onboarding ones are new and have no tickets yet.
    const createdAt =
      status === 'onboarding'
        ? between(rng, daysAgo(45), daysAgo(5))
        : between(rng, daysAgo(7 * 365), daysAgo(2 * 365 + 30))
    const employeeCount = rng.chance(0.05)
      ? null
      : Math.max(3, Math.round(profile.employees * (0.85 + rng.next() * 0.3)))
    const record: Company = {
      id: rng.uuid(),
      name: profile.name,
      domain: profile.domain,
      status,
      employeeCount,
      industry: profile.industry,
      website: rng.chance(0.05) ? null : `https://www.${profile.domain}`,
      createdAt: iso(createdAt),
      updatedAt: iso(between(rng, createdAt, daysAgo(1))),
    }
    return {
      id: record.id,
      name: profile.name,
      provider,
      weight: status === 'onboarding' ? 0 : status === 'inactive' ? profile.employees * 0.1 : profile.employees ** 0.7,
      contacts: contactsOf(rng, profile.domain, profile.employees),
      record,
      profile,
      active: status === 'active',
    }
  })
}

/** The roles of the MSP's staff and how many people hold each. */
const STAFF: ReadonlyArray<{ role: string; count: number; technician: boolean }> = [
  { role: 'Owner', count: 1, technician: false },
  { role: 'Administrator', count: 2, technician: false },
  { role: 'Service Manager', count: 1, technician: true },
  { role: 'Dispatcher', count: 1, technician: false },
  { role: 'Technician', count: 9, technician: true },
  { role: 'Senior Engineer', count: 3, technician: true },
  { role: 'vCIO', count: 2, technician: false },
  { role: 'Project Manager', count: 1, technician: false },
  { role: 'Finance', count: 1, technician: false },
  { role: 'Read Only', count: 1, technician: false },
  { role: 'Co-managed IT', count: 3, technician: false },
]

/** The MSP's staff and what other records need from it. */
export interface DemoStaff {
  users: User[]
  /** The primary admin: the demo key's actor, author of budgets and rules. */
  admin: { id: string; name: string }
  /** Active people who work tickets (their names appear as `assignedTo`). */
  technicians: string[]
  /** Staff who write budgets, reports and rules. */
  planners: Array<{ id: string; name: string }>
}

/**
 * The MSP's staff: one primary admin (the Owner), technicians, vCIOs and others; one disabled
 * former technician, one pending invite, and co-managed IT users imported from customers.
 */
export function makeStaff(rng: Sfc32, companies: readonly DemoCompany[]): DemoStaff {
  const users: User[] = []
  const technicians: string[] = []
  const planners: Array<{ id: string; name: string }> = []
  const usedEmails = new Set<string>()
  const customers = companies.filter((c) => c.active)
  for (const { role, count, technician } of STAFF) {
    const roleRef = { id: rng.uuid(), name: role }
    for (let n = 0; n < count; n++) {
      const first = rng.pick(FIRST_NAMES)
      const last = rng.pick(LAST_NAMES)
      const fullName = `${first} ${last}`
      const company = role === 'Co-managed IT' && customers.length > 0 ? rng.pick(customers) : null
      let local = emailLocal(first, last)
      const domain = company?.profile.domain ?? DEMO_MSP.domain
      for (let k = 2; usedEmails.has(`${local}@${domain}`); k++) local = `${emailLocal(first, last)}${k}`
      usedEmails.add(`${local}@${domain}`)
      const isPrimaryAdmin = role === 'Owner'
      const status: User['status'] = company
        ? 'imported'
        : role === 'Technician' && n === count - 1
          ? 'disabled'
          : role === 'Technician' && n === count - 2
            ? 'pending'
            : 'active'
      const createdAt = isPrimaryAdmin
        ? daysAgo(6 * 365)
        : status === 'pending'
          ? daysAgo(rng.int(1, 6))
          : between(rng, daysAgo(5 * 365), daysAgo(30))
      const lastLogin =
        status === 'active'
          ? between(rng, Math.max(createdAt, daysAgo(14)), daysAgo(0.05))
          : status === 'disabled'
            ? between(rng, createdAt, daysAgo(90))
            : status === 'imported' && rng.chance(0.5)
              ? between(rng, createdAt, daysAgo(1))
              : null
      const id = rng.uuid()
      users.push({
        id,
        email: `${local}@${domain}`,
        fullName,
        avatarUrl: rng.chance(0.6) ? `https://avatars.${DEMO_MSP.domain}/u/${id}.png` : null,
        status,
        isPrimaryAdmin,
        lastLogin: lastLogin === null ? null : iso(lastLogin),
        createdAt: iso(createdAt),
        updatedAt: iso(
          Math.max(createdAt, lastLogin ?? createdAt, status === 'disabled' ? daysAgo(80) : createdAt) + DAY / 24,
        ),
        role: roleRef,
        company: company ? { id: company.id, name: company.name } : null,
      })
      if (technician && status === 'active') technicians.push(fullName)
      if (['Owner', 'Administrator', 'vCIO', 'Project Manager', 'Service Manager'].includes(role))
        planners.push({ id, name: fullName })
    }
  }
  const owner = users.find((u) => u.isPrimaryAdmin) as User
  return { users, admin: { id: owner.id, name: owner.fullName ?? owner.email }, technicians, planners }
}
