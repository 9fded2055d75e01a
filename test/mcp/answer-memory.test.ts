/**
 * Bounded answers in bounded memory (docs/mcp.md#bounded-answers): a child process serves the MCP
 * endpoint through the Node mount (its answers at most the default 4 MiB), with events of about
 * 600 KB of backslashes and quotes (a `listEvents` result of one is about 1.8 MB); 8 clients each
 * send one batch of 10 `listEvents` calls and never read. The child's RSS grows by less than
 * RSS_GROWTH_BOUND while it holds the 8 answers, and keeps less than RETAINED_BOUND once they left.
 * Before the budget, the child ran out of its capped heap (the SDK writing answers of about 18 MB
 * each); uncapped, it held about 840 MB.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { forkWorker } from '../support/worker-process.js'

/** The child's V8 heap, in MB: garbage is collected before it passes this, as in test/stores/large-events.test.ts. */
const HEAP_MB = 192
/**
 * What the child's RSS may grow by: 8 answers of at most 4 MiB held as text and as the bytes being
 * written (about 64 MiB), and what the 8 batches being answered at once make and drop (each call's
 * REST page, its escaped copy, the result); measured about 125 MB.
 */
const RSS_GROWTH_BOUND = 192 * 1024 * 1024
/** What the child may keep once the clients left, after a garbage collection: measured about 32 MB. */
const RETAINED_BOUND = 96 * 1024 * 1024
const worker = fileURLToPath(new URL('./answer-memory-worker.ts', import.meta.url))

interface Result {
  baseline: number
  peak: number
  held: number
  left: number
  answered: number
}

describe('MCP answers in bounded memory', () => {
  it('8 clients that never read hold at most their budgets through the Node mount', { timeout: 120_000 }, async () => {
    const { baseline, peak, held, left, answered } = await forkWorker<Result>(worker, {}, [
      '--expose-gc',
      `--max-old-space-size=${HEAP_MB}`,
    ]).result
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20)
    const seen = `RSS ${mb(baseline)} MB, peak ${mb(peak)} MB, held ${mb(held)} MB, after ${mb(left)} MB`
    console.info(`MCP answers to 8 clients that never read: ${seen}`)
    expect(answered, seen).toBe(8)
    expect(peak - baseline, seen).toBeLessThan(RSS_GROWTH_BOUND)
    expect(left - baseline, seen).toBeLessThan(RETAINED_BOUND)
  })
})
