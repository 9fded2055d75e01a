import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

interface Answer {
  combination: string
  status: number
  body: string
  onErrorCalls: number
}

/** The stderr lines each combination wrote, after its `@@ name` marker. */
function stderrLines(stderr: string): Map<string, string[]> {
  const lines = new Map<string, string[]>()
  let current: string[] = []
  for (const line of stderr.split('\n')) {
    if (line.startsWith('@@ ')) lines.set(line.slice(3), (current = []))
    else if (line !== '') current.push(line)
  }
  return lines
}

describe('onResponse and onError cannot change an answer or end the process', () => {
  it('every combination of failing hooks, for a 200 and a 500, via the Fetch handler and the Node mount', async () => {
    const script = resolve('test/http/fixtures/hook-failures.ts')
    // Its own process: Node's default for an unhandled rejection is to end it with code 1 (execFile then rejects).
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      timeout: 120_000,
    })
    const all = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Answer)
    const lines = stderrLines(stderr)
    expect(lines.has('done'), stderr).toBe(true)
    const answers = all.filter((answer) => !answer.combination.startsWith('mount/'))
    expect(answers).toHaveLength(4 * 4 * 2 * 2)

    // The Node mount's own onError: the mount still answers its 500, a failing onError is dropped.
    const mount = all.filter((answer) => answer.combination.startsWith('mount/'))
    expect(mount.map((answer) => answer.combination.split('/')[1])).toEqual(['ok', 'throws', 'rejects', 'absent'])
    for (const answer of mount) {
      const onError = answer.combination.split('/')[1]
      expect(answer.status, answer.combination).toBe(500)
      expect(JSON.parse(answer.body), answer.combination).toEqual({
        error: 'An unexpected error occurred',
        code: 'INTERNAL_ERROR',
        requestId: 'req-hooks',
      })
      const written = lines.get(answer.combination) ?? []
      if (onError === 'ok') expect([answer.onErrorCalls, written]).toEqual([1, []])
      if (onError === 'throws' || onError === 'rejects') {
        expect(answer.onErrorCalls, answer.combination).toBe(1)
        expect(written, answer.combination).toHaveLength(1)
        expect(written[0]).toContain('mount onError failed, its failure dropped: Error: onError broke second line')
      }
    }

    const reference = new Map<string, Answer>()
    for (const answer of answers) {
      const [onResponse, onError, outcome, via] = answer.combination.split('/') as [string, string, string, string]
      if (onResponse === 'ok' && onError === 'ok') reference.set(`${outcome}/${via}`, answer)
    }
    for (const answer of answers) {
      const [onResponse, onError, outcome, via] = answer.combination.split('/') as [string, string, string, string]
      const expected = reference.get(`${outcome}/${via}`)!
      expect(answer.status, answer.combination).toBe(Number(outcome))
      expect(answer.body, answer.combination).toBe(expected.body)
      // The store's failure (on a 500) and the listener's failure both reach onError, once each.
      const reported = (outcome === '500' ? 1 : 0) + (onResponse === 'ok' ? 0 : 1)
      if (onError !== 'absent') expect(answer.onErrorCalls, answer.combination).toBe(reported)
      const written = lines.get(answer.combination) ?? []
      const dropped = written.filter((line) => line.includes('onError failed'))
      if (onError === 'ok') expect(written, answer.combination).toEqual([])
      if (onError === 'throws' || onError === 'rejects') {
        // One line per dropped failure of onError, nothing else: its message on one line.
        expect(written, answer.combination).toHaveLength(reported)
        expect(dropped, answer.combination).toHaveLength(reported)
        for (const line of dropped) expect(line).toContain('onError broke second line')
      }
      if (onError === 'absent') expect(dropped, answer.combination).toEqual([])
    }
    expect(answers.find((a) => a.combination === 'ok/ok/200/node')!.body).toContain('"data":[]')
  }, 180_000)
})
