/**
 * Cursor pages beside offset pages (docs/extensions.md, section 1), through the Fetch handler, on a
 * store bench/stores.ts has loaded: the cursor page at half the tickets' depth beside page 1 (its
 * baseline: a cursor page should cost what the first page costs) and the OFFSET page at that depth;
 * then a full walk of the tenant by cursor at limit=100, beside an offset walk's cost estimated from
 * sampled pages (walking it whole would take hours at 1M tickets).
 */
import type { PublicApiHandler } from '../src/create-public-api.js'
import { yieldToSignals } from './cleanup.js'

/** Per-call median of `fn` over `rounds` rounds of `batch` calls, after a warm-up. */
async function median(rounds: number, batch: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn()
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    for (let i = 0; i < batch; i++) await fn()
    times.push((performance.now() - started) / batch)
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!
}

/**
 * Times the cursor cases of `total` tickets of the tenant that `headers` authenticates; prints them
 * and resolves to true when every target is met.
 *
 * @example
 * await measureCursors('sqlite', api, headers, 1_000_000)
 */
export async function measureCursors(
  engine: string,
  api: PublicApiHandler,
  headers: Record<string, string>,
  total: number,
): Promise<boolean> {
  const get = async (path: string) => {
    const response = await api(new Request(`http://bench/api/public/v1${path}`, { headers }))
    const text = await response.text()
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`)
    return JSON.parse(text) as { data: unknown[]; pagination: { nextCursor: string | null; page: number } }
  }
  const limit = 25
  const depthPage = Math.max(1, Math.floor(total / 2 / limit))
  // A page-mode answer carries the cursor of the page after it: the cursor at depth `depthPage * limit`.
  const cursor = (await get(`/tickets?limit=${limit}&page=${depthPage}`)).pagination.nextCursor
  if (cursor === null) throw new Error('no cursor at depth')
  const cursorPath = `/tickets?limit=${limit}&cursor=${cursor}`
  const offsetPath = `/tickets?limit=${limit}&page=${depthPage + 1}`
  const first = () => get(`/tickets?limit=${limit}`)
  const once = performance.now()
  await get(offsetPath)
  const slow = performance.now() - once > 5
  // In turns, batch by batch, so that a slow spell of the shared machine lands on both sides of the ratio.
  for (let i = 0; i < 50; i++) await Promise.all([first(), get(cursorPath)])
  const firstMs: number[] = []
  const cursorMs: number[] = []
  for (let round = 0; round < 41; round++) {
    firstMs.push(await median(1, 10, first))
    cursorMs.push(await median(1, 10, () => get(cursorPath)))
  }
  const byOffset = await median(slow ? 3 : 7, 1, () => get(offsetPath))
  const mid = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!
  const [pageOne, atDepth] = [mid(firstMs), mid(cursorMs)]
  const depthRatio = atDepth / pageOne
  const depth = (depthPage * limit).toLocaleString('en')
  console.log(`\n${engine}: cursor pages (${total.toLocaleString('en')} tickets, handler, ${limit} per page)`)
  console.log(`page 1                           ${pageOne.toFixed(3)} ms`)
  console.log(
    `cursor page at depth ${depth.padEnd(11)} ${atDepth.toFixed(3)} ms  ${depthRatio.toFixed(2)}x page 1`,
    `(target ≤ 1.5x) ${depthRatio <= 1.5 ? 'ok' : 'MISSED'}`,
  )
  console.log(
    `OFFSET page at depth ${depth.padEnd(11)} ${byOffset.toFixed(3)} ms  ${(byOffset / pageOne).toFixed(2)}x page 1`,
  )

  // The whole tenant by cursor at limit=100, through the handler.
  const walkLimit = 100
  const started = performance.now()
  let seen = 0
  let pages = 0
  let next: string | null = null
  do {
    const body = await get(`/tickets?limit=${walkLimit}${next === null ? '' : `&cursor=${next}`}`)
    seen += body.data.length
    pages += 1
    next = body.pagination.nextCursor
    // On SQLite every call resolves at once: let a signal's listener run now and then.
    if (pages % 100 === 0) await yieldToSignals()
  } while (next !== null)
  const walkSeconds = (performance.now() - started) / 1000
  if (seen !== total) throw new Error(`the walk saw ${seen} of ${total} tickets`)
  // The offset walk's cost: pages sampled evenly through the depth, each timed once, integrated.
  const samples = 11
  let sampledMs = 0
  for (let i = 0; i < samples; i++) {
    const page = 1 + Math.round(((pages - 1) * i) / (samples - 1))
    const t0 = performance.now()
    await get(`/tickets?limit=${walkLimit}&page=${page}`)
    sampledMs += performance.now() - t0
  }
  const offsetWalkSeconds = ((sampledMs / samples) * pages) / 1000
  console.log(
    `full walk by cursor, limit=${walkLimit}      ${walkSeconds.toFixed(1)} s for ${pages.toLocaleString('en')} pages`,
    `(target ≤ 60 s) ${walkSeconds <= 60 ? 'ok' : 'MISSED'}`,
  )
  console.log(
    `offset walk (estimated from ${samples} sampled pages) ${offsetWalkSeconds.toFixed(1)} s`,
    `(${(offsetWalkSeconds / walkSeconds).toFixed(1)}x the cursor walk)`,
  )
  return depthRatio <= 1.5 && walkSeconds <= 60
}
