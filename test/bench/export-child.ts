/**
 * A bench process in miniature for test/bench/exported-commit.test.ts: exports a commit, prints the
 * directory, then ends as argv[2] says: `exit` (normally), `throw` (an uncaught error), `wait` (until
 * a signal ends it).
 */
import { exportCommit } from '../../bench/exported-commit.js'

const dir = exportCommit('HEAD', 'test', ['bench/run.ts'])
console.log(`DIR ${dir}`)
const how = process.argv[2]
if (how === 'throw') throw new Error('the bench failed')
if (how === 'wait') setInterval(() => {}, 1000)
