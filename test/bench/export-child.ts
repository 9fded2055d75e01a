/**
 * A bench process in miniature for test/bench/exported-commit.test.ts: exports a commit, prints the
 * directory, then ends as argv[2] says: `exit` (normally), `throw` (an uncaught error), `wait` (until
 * a signal ends it), `busy` (until a signal ends it, busy meanwhile with calls that all resolve at
 * once, as a bench on the memory store is, yielding between batches; a task registered for the
 * interrupt prints `TASK RAN`).
 */
import { atInterrupt, yieldToSignals } from '../../bench/cleanup.js'
import { exportCommit } from '../../bench/exported-commit.js'

const dir = exportCommit('HEAD', 'test', ['bench/run.ts'])
console.log(`DIR ${dir}`)
const how = process.argv[2]
if (how === 'throw') throw new Error('the bench failed')
if (how === 'wait') setInterval(() => {}, 1000)
if (how === 'busy') {
  atInterrupt(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50))
    console.log('TASK RAN')
  })
  for (;;) {
    for (let i = 0; i < 10_000; i++) await Promise.resolve(i)
    await yieldToSignals()
  }
}
