/**
 * Demo tickets, generated one at a time from their index: ticket `i` depends only on the seed, the
 * tenant's companies and technicians, and `i`. So a million tickets need no memory until someone
 * reads them, any one of them can be produced on its own, and the same seed always gives the same
 * ticket.
 */
import type { Ticket, TicketNote } from '../model/tickets.js'
import { PROVIDERS } from '../model/tickets.js'
import { fmix32, hashString, Sfc32, uuidFromWords } from './prng.js'
import {
  FILL,
  NOTE_TEXTS,
  OPEN_STATUSES,
  PRIORITIES,
  PROVIDER_PROFILES,
  TICKET_CATEGORIES,
  TICKET_TYPES,
} from './ticket-vocabulary.js'

/** A PSA provider id. */
export type Provider = (typeof PROVIDERS)[number]

/** A demo ticket as seeded: every field, plus its notes (oldest first). */
export type DemoTicket = Ticket & { notes: TicketNote[] }

/** A person at a customer company (ticket contact, training enrollee). */
export interface DemoContact {
  id: string
  fullName: string
  email: string
}

/** What tickets need to know about a customer company. */
export interface TicketCompany {
  id: string
  name: string
  provider: Provider
  /** Relative ticket volume (bigger companies raise more tickets); 0 for none. */
  weight: number
  contacts: readonly DemoContact[]
}

/** Everything a ticket is generated from, besides its index. */
export interface TicketContext {
  seed: number
  count: number
  companies: readonly TicketCompany[]
  technicians: readonly string[]
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The demo's "now": every timestamp is relative to it, never to the clock. A Monday morning (UTC). */
export const DEMO_NOW = Date.UTC(2025, 8, 29, 13, 0, 0)
/**
 * Tickets are created in business hours (13:00–23:00 UTC, i.e. 9–7 US Eastern) on the 520 weekdays
 * before {@link DEMO_NOW}.
 */
const FIRST_MONDAY = Date.UTC(2023, 9, 2)
const WEEKDAYS = 520
const BUSINESS_START = 13 * HOUR
const BUSINESS_LENGTH = 10 * HOUR
const BUSINESS_TOTAL = WEEKDAYS * BUSINESS_LENGTH

/** Business time `b` (ms since the first window opened) as a calendar time: skips nights and weekends. */
function businessToCalendar(b: number): number {
  const day = Math.floor(b / BUSINESS_LENGTH)
  const offset = b - day * BUSINESS_LENGTH
  const calendarDay = Math.floor(day / 5) * 7 + (day % 5)
  return FIRST_MONDAY + calendarDay * DAY + BUSINESS_START + offset
}

/** Share of tickets each provider mirrors, as a 10-slot cycle (4:3:2:1). */
const PROVIDER_SLOTS: readonly Provider[] = [
  'psa_a',
  'psa_a',
  'psa_a',
  'psa_a',
  'psa_b',
  'psa_b',
  'psa_b',
  'psa_c',
  'psa_c',
  'psa_d',
]

/** Where in the cycle each provider sits, so the provider's own sequence number follows from `i`. */
interface ProviderCycle {
  slots: Provider[]
  /** For each slot: how many earlier slots of the cycle have the same provider. */
  rank: number[]
  perCycle: Record<Provider, number>
}

function providerCycle(seed: number): ProviderCycle {
  const rng = new Sfc32(fmix32(seed), hashString('provider-cycle'), 7, 11)
  const slots = [...PROVIDER_SLOTS]
  for (let i = slots.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[slots[i], slots[j]] = [slots[j] as Provider, slots[i] as Provider]
  }
  const perCycle: Record<Provider, number> = { psa_a: 0, psa_b: 0, psa_c: 0, psa_d: 0 }
  const rank = slots.map((p) => perCycle[p]++)
  return { slots, rank, perCycle }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** Each PSA numbers its tickets its own way; the sequence is per provider and rises with time. */
function ticketNumber(provider: Provider, sequence: number, createdAt: number): string {
  switch (provider) {
    case 'psa_a':
      return String(100_000 + sequence)
    case 'psa_b': {
      const d = new Date(createdAt)
      return `T${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}.${pad(sequence + 1, 4)}`
    }
    case 'psa_c':
      return `INC-${pad(sequence + 1, 6)}`
    case 'psa_d':
      return `SR-${sequence + 1001}`
  }
}

const EXTERNAL_ID_BASE: Record<Provider, number> = {
  psa_a: 2_400_000,
  psa_b: 29_600_000,
  psa_c: 51_000,
  psa_d: 880_000,
}

function fill(template: string, rng: Sfc32): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => rng.pick(FILL[key as keyof typeof FILL] ?? ['']))
}

const CATEGORY_WEIGHTS = TICKET_CATEGORIES.map((c) => c.weight)
const RESOLUTION_HOURS: Record<string, number> = { Critical: 4, High: 14, Medium: 36, Low: 90 }
const round = (value: number, step: number) => Math.round(value / step) * step

/** The companies that raise one provider's tickets, with their weights. */
interface CompanyPool {
  companies: TicketCompany[]
  weights: number[]
}

/** Each provider's pool: its own customers that raise tickets, or every such company if it has none. */
function companyPools(companies: readonly TicketCompany[]): Map<Provider, CompanyPool> {
  const raising = companies.filter((c) => c.weight > 0)
  const pools = new Map<Provider, CompanyPool>()
  for (const provider of PROVIDERS) {
    const own = raising.filter((c) => c.provider === provider)
    const pool = own.length > 0 ? own : raising
    pools.set(provider, { companies: pool, weights: pool.map((c) => c.weight) })
  }
  return pools
}

/** What a ticket's notes are made from. */
interface NoteContext {
  /** The first word of each note id, shared with the ticket's own id. */
  idWord: number
  createdAt: number
  /** When the ticket closed, or null while it is open. */
  closedAt: number | null
  contact: DemoContact | null
  /** Who writes the notes that are not the contact's: the assignee, else a technician. */
  author: string | null
  technicians: readonly string[]
}

/**
 * The notes of one ticket, oldest first: about a third of tickets have one to five, internal ones
 * by technicians, external ones by a technician or the contact, and a closed ticket's last note
 * closes it. Draws from `rng` in a fixed order, so the ticket stays a function of its index.
 */
function ticketNotes(rng: Sfc32, note: NoteContext): TicketNote[] {
  const { idWord, createdAt, closedAt, contact, author, technicians } = note
  const isClosed = closedAt !== null
  const end = closedAt ?? DEMO_NOW
  const notes: TicketNote[] = []
  const noteCount = rng.chance(0.35) ? rng.int(1, 5) : 0
  const noteSpan = Math.max(end - createdAt, 60_000)
  for (let n = 0; n < noteCount; n++) {
    const isInternal = rng.chance(0.55)
    const last = isClosed && n === noteCount - 1
    const fromContact = !isInternal && !last && contact !== null && rng.chance(0.4)
    const text = last
      ? NOTE_TEXTS.external[3]
      : isInternal
        ? rng.pick(NOTE_TEXTS.internal)
        : fromContact
          ? rng.pick(NOTE_TEXTS.external.slice(4))
          : rng.pick(NOTE_TEXTS.external.slice(0, 3))
    notes.push({
      id: uuidFromWords(idWord, rng.u32(), (rng.u32() & 0xffff0000) | n, rng.u32()),
      text,
      isInternal: isInternal && !last,
      createdAt: new Date(last ? end : createdAt + Math.floor(((n + rng.next()) / noteCount) * noteSpan)).toISOString(),
      createdBy: fromContact ? contact.fullName : (author ?? (technicians.length > 0 ? rng.pick(technicians) : null)),
    })
  }
  return notes
}

/**
 * Makes ticket `index` (0-based) of a demo tenant. Tickets are numbered in creation order, so
 * higher indexes are newer; each provider's ticket numbers rise with creation time.
 */
export type TicketFactory = (index: number) => DemoTicket

/**
 * Builds the function that makes any ticket of the tenant from its index.
 *
 * @example
 * const ticketAt = ticketFactory({ seed: 1, count: 10_000, companies, technicians })
 * ticketAt(0).ticketNumber // the oldest ticket
 */
export function ticketFactory(context: TicketContext): TicketFactory {
  const { seed, count, technicians } = context
  const cycle = providerCycle(seed)
  const byProvider = companyPools(context.companies)
  const seedMix = fmix32(seed ^ 0x5bd1e995)
  const streamKey = hashString('ticket')
  const rng = new Sfc32(0, 0, 0, 0)
  const slot = BUSINESS_TOTAL / Math.max(count, 1)

  return (index) => {
    rng.reseed(fmix32(seed), streamKey, index >>> 0, Math.floor(index / 4294967296))
    const provider = cycle.slots[index % 10] as Provider
    const sequence = Math.floor(index / 10) * cycle.perCycle[provider] + (cycle.rank[index % 10] as number)
    const createdAt = Math.floor(businessToCalendar((index + rng.next() * 0.999) * slot))
    const age = DEMO_NOW - createdAt

    const pool = byProvider.get(provider) as CompanyPool
    const company = pool.companies.length > 0 && !rng.chance(0.005) ? rng.weighted(pool.companies, pool.weights) : null
    const category = rng.weighted(TICKET_CATEGORIES, CATEGORY_WEIGHTS)
    const typeName =
      category.name === 'Security' && rng.chance(0.5) ? 'Alert' : rng.weighted(TICKET_TYPES.names, TICKET_TYPES.weights)
    const isAlert = typeName === 'Alert'
    const priority = rng.chance(0.01) ? null : rng.weighted(PRIORITIES.names, PRIORITIES.weights)
    const profile = PROVIDER_PROFILES[provider]

    // Older tickets are almost all closed; this week's are mostly open.
    const closeChance = age > 30 * DAY ? 0.97 : age > 7 * DAY ? 0.8 : age > DAY ? 0.55 : 0.25
    let isClosed = rng.chance(closeChance)
    let closedAt = 0
    if (isClosed) {
      const expected = RESOLUTION_HOURS[priority ?? 'Medium'] ?? 36
      const took = Math.max(0.1 * HOUR, -Math.log(1 - rng.next()) * expected * HOUR)
      closedAt = createdAt + Math.min(took, age - 60_000)
      if (closedAt <= createdAt) isClosed = false
    }
    const status = isClosed
      ? rng.chance(0.03)
        ? 'Cancelled'
        : profile.closed
      : age < 2 * HOUR && rng.chance(0.5)
        ? 'New'
        : rng.weighted(OPEN_STATUSES.names, OPEN_STATUSES.weights)
    const assignedTo =
      status === 'New' && rng.chance(0.6) ? null : technicians.length > 0 ? rng.pick(technicians) : null
    const lastActivity = isClosed ? closedAt : status === 'New' ? createdAt : createdAt + Math.floor(rng.next() * age)
    const updatedAt = status === 'New' && lastActivity === createdAt && rng.chance(0.5) ? null : lastActivity
    const contact =
      company && !isAlert && company.contacts.length > 0 && !rng.chance(0.04) ? rng.pick(company.contacts) : null
    const hoursActual =
      status === 'New' ? null : round(0.25 + -Math.log(1 - rng.next()) * (isClosed ? 1.5 : 0.75), 0.25)
    const hoursBudgeted = rng.chance(0.55) ? null : rng.pick([0.5, 1, 2, 4, 8])
    const id = uuidFromWords(fmix32((index + seedMix) >>> 0), rng.u32(), rng.u32(), rng.u32())

    const notes = ticketNotes(rng, {
      idWord: fmix32((index + seedMix) >>> 0),
      createdAt,
      closedAt: isClosed ? closedAt : null,
      contact,
      author: assignedTo,
      technicians,
    })

    return {
      id,
      ticketNumber: ticketNumber(provider, sequence, createdAt),
      title: fill(rng.pick(category.titles), rng),
      description: rng.chance(0.15) ? null : rng.pick(category.descriptions),
      companyId: company?.id ?? null,
      companyName: company?.name ?? null,
      contactName: contact?.fullName ?? null,
      contactEmail: contact?.email ?? null,
      status,
      isClosed,
      priority,
      assignedTo,
      boardName: profile.boards ? rng.pick(profile.boards) : null,
      queueName: profile.queues ? rng.pick(profile.queues) : null,
      typeName,
      categoryName: category.name,
      issueTypeName: rng.chance(0.1) ? null : rng.pick(category.issueTypes),
      hoursBudgeted,
      hoursActual,
      createdAt: new Date(createdAt).toISOString(),
      updatedAt: updatedAt === null ? null : new Date(updatedAt).toISOString(),
      daysOpen: Math.floor(((isClosed ? closedAt : DEMO_NOW) - createdAt) / DAY),
      provider,
      externalId: rng.chance(0.01) ? null : String(EXTERNAL_ID_BASE[provider] + sequence * 3 + rng.int(0, 2)),
      source: isAlert
        ? (profile.sources[profile.sources.length - 1] ?? null)
        : rng.chance(0.05)
          ? null
          : rng.pick(profile.sources),
      notes,
    }
  }
}

/**
 * A read-only array of `length` elements made on demand by `at(index)`: nothing is stored, so a
 * million tickets cost no memory until they are read. It is a real `Array` to `Array.isArray`,
 * `map`, `for...of`, spreading and `JSON.stringify`; writes throw. Each read makes a fresh object.
 *
 * @example
 * const squares = lazyArray(1_000_000, (i) => i * i)
 * squares[12] // 144
 * squares.slice(0, 3) // [0, 1, 4]
 */
export function lazyArray<T>(length: number, at: (index: number) => T): T[] {
  const target: T[] = []
  target.length = length // a holey array: no element storage is allocated
  const indexOf = (key: string | symbol): number => {
    if (typeof key !== 'string') return -1
    const n = Number(key)
    return Number.isInteger(n) && n >= 0 && n < length && String(n) === key ? n : -1
  }
  const readOnly = () => {
    throw new TypeError(
      'Demo tickets are generated on demand and cannot be modified; copy them first (e.g. [...tickets]).',
    )
  }
  return new Proxy(target, {
    get(obj, key, receiver) {
      const index = indexOf(key)
      return index >= 0 ? at(index) : Reflect.get(obj, key, receiver)
    },
    has(obj, key) {
      return indexOf(key) >= 0 || Reflect.has(obj, key)
    },
    getOwnPropertyDescriptor(obj, key) {
      const index = indexOf(key)
      return index >= 0
        ? { value: at(index), writable: false, enumerable: true, configurable: true }
        : Reflect.getOwnPropertyDescriptor(obj, key)
    },
    ownKeys(obj) {
      const keys: Array<string | symbol> = []
      for (let i = 0; i < length; i++) keys.push(String(i))
      return [...keys, ...Reflect.ownKeys(obj)]
    },
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
  })
}
