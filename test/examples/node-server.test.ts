/**
 * examples/node-server, as its one command runs it: the Node mount in a host app of its own answers
 * the mounts' scenario (a list, a detail, a POST, a PATCH, a DELETE, a 401, a 413, an aborted upload)
 * with the key it prints. The demo server `npm start` runs is the CLI's `serve` (test/cli/serve.test.ts).
 * Here against the repository's build, mapped by a tsconfig of the test's; installed from the packed
 * package, as printed, in test/examples/standalone.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printedKey, runMountScenario, type ServedProcess, startRepositoryExample } from '../adapters/support.js'

describe('examples/node-server, as its one command runs it', () => {
  let served: ServedProcess
  let base = ''
  beforeAll(async () => {
    ;({ base, served } = await startRepositoryExample('node-server'))
  }, 60_000)
  afterAll(() => served?.stop())

  it('serves the scenario with the key it prints', async () => {
    await runMountScenario(base, await printedKey(served))
    expect(served.output()).toContain(`Node: ${base}/tickets  (Authorization: Bearer tpa_`)
  })
})
