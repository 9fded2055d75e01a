/**
 * Paired timing: functions timed in turns in one process, a batch of each per round, the order of
 * the turns reversed every other round. A ratio within one round compares batches run moments
 * apart, so a shared machine whose speed drifts by tens of percent over seconds (bench/README.md)
 * moves both sides of it alike; the figures are per-call medians over the rounds and the median of
 * the per-round ratios.
 *
 * Between batches (untimed) it yields to the event loop (bench/cleanup.ts `yieldToSignals`): a bench
 * whose calls all resolve at once (the memory store) would otherwise starve it, and a Ctrl-C or
 * SIGTERM would wait for the end of the run before its listener could clean up.
 */
import { yieldToSignals } from './cleanup.js'

/** How to time: `rounds` rounds of a `batch` of calls per side, after a warm-up. */
export interface PairedOptions {
  /** Rounds; each times one batch of every side. */
  rounds: number
  /** Calls per timed batch (each side's time is that batch's over `batch`). */
  batch: number
  /**
   * Untimed calls of each side, in turns, before the first round (the JIT, and caches such as the
   * count cache, as in steady serving). Default: two batches.
   */
  warmUp?: number
  /**
   * Run untimed before each timed batch, e.g. `() => globalThis.gc?.()` so that the garbage one side
   * left is not collected during the other's batch.
   */
  beforeBatch?: () => void
}

/** What {@link timeInTurns} measured, in milliseconds per call. */
export interface TurnTimes {
  /** Each side's median per-call time over the rounds, in the order the sides were given. */
  medians: number[]
  /** The median over the rounds of side `side`'s batch time over side `to`'s in the same round. */
  ratio(side: number, to: number): number
}

const median = (list: readonly number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!

/**
 * Times every side in turns; see {@link paired} for two.
 *
 * @example
 * const { medians, ratio } = await timeInTurns([raw, handler, mount], { rounds: 31, batch: 20 })
 * console.log(`handler ${medians[1]} ms, ${ratio(1, 0)}x the raw SQL`)
 */
export async function timeInTurns(
  sides: ReadonlyArray<() => unknown>,
  { rounds, batch, warmUp = batch * 2, beforeBatch }: PairedOptions,
): Promise<TurnTimes> {
  for (let i = 0; i < warmUp; i++) {
    for (const fn of sides) await fn()
    if ((i + 1) % batch === 0) await yieldToSignals()
  }
  const times = sides.map((): number[] => [])
  const forward = [...sides.keys()]
  const backward = [...forward].reverse()
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? forward : backward) {
      await yieldToSignals()
      beforeBatch?.()
      const fn = sides[side]!
      const started = performance.now()
      for (let i = 0; i < batch; i++) await fn()
      times[side]!.push((performance.now() - started) / batch)
    }
  }
  return {
    medians: times.map(median),
    ratio: (side, to) => median(times[side]!.map((time, round) => time / times[to]![round]!)),
  }
}

/**
 * `a` and `b` timed in turns: the per-call median of each (ms) and the median of the per-round
 * ratios `a / b` (`b` is the baseline).
 *
 * @example
 * const { a, b, ratio } = await paired(toolCall, restRequest, { rounds: 30, batch: 200 })
 * console.log(`${a.toFixed(3)} ms vs ${b.toFixed(3)} ms: ${ratio.toFixed(2)}x`)
 */
export async function paired(
  a: () => unknown,
  b: () => unknown,
  options: PairedOptions,
): Promise<{ a: number; b: number; ratio: number }> {
  const { medians, ratio } = await timeInTurns([a, b], options)
  return { a: medians[0]!, b: medians[1]!, ratio: ratio(0, 1) }
}
