/**
 * A bench run leaves no exported commit behind: the directory exportCommit makes is removed when the
 * process ends, however it ends (normally, on an uncaught error, on SIGINT or SIGTERM, also while it
 * is busy with calls that never wait, after its interrupt tasks have run). Each child
 * gets a temporary folder of its own (TMPDIR), which must hold nothing afterwards but tsx's
 * compile cache (`tsx-<uid>`, tsx's own and kept on purpose, as on every tsx run).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const child = join(import.meta.dirname, 'export-child.ts')
const folders: string[] = []

/** What the child left in its temporary folder, tsx's cache aside. */
const leftIn = (folder: string) => readdirSync(folder).filter((name) => !/^tsx-\d+$/.test(name))

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** Runs the child in a fresh temporary folder; `signal` is sent once it has exported. */
function run(how: 'exit' | 'throw' | 'wait' | 'busy', signal?: NodeJS.Signals) {
  const folder = mkdtempSync(join(tmpdir(), 'export-test-'))
  folders.push(folder)
  const proc = spawn(process.execPath, ['--import', 'tsx', child, how], {
    env: { ...process.env, TMPDIR: folder },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let exported: string | undefined
  return new Promise<{
    folder: string
    exported: string | undefined
    code: number | null
    end: string | null
    output: string
  }>((resolve) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      exported ??= /^DIR (.+)$/m.exec(output)?.[1]
      // The export exists while the process runs.
      if (exported !== undefined && signal !== undefined && existsSync(join(exported, 'bench/run.ts'))) {
        proc.kill(signal)
        signal = undefined
      }
    })
    proc.stderr.resume()
    proc.on('close', (code, end) => resolve({ folder, exported, code, end, output }))
  })
}

describe('exportCommit', () => {
  it('removes the export when the process ends normally', async () => {
    const { folder, exported, code } = await run('exit')
    expect(code).toBe(0)
    expect(exported?.startsWith(folder)).toBe(true)
    expect(leftIn(folder)).toEqual([])
  })

  it('removes it when the process fails', async () => {
    const { folder, exported, code } = await run('throw')
    expect(code).not.toBe(0)
    expect(exported).toBeDefined()
    expect(leftIn(folder)).toEqual([])
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('removes it on %s, and the signal still ends the process', async (signal) => {
    const { folder, exported, end } = await run('wait', signal)
    expect(exported).toBeDefined()
    expect(end).toBe(signal)
    expect(leftIn(folder)).toEqual([])
  })

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'removes it on %s while the process is busy with calls that never wait, after its interrupt task',
    async (signal) => {
      const { folder, exported, end, output } = await run('busy', signal)
      expect(exported).toBeDefined()
      expect(output).toContain('TASK RAN')
      expect(end).toBe(signal)
      expect(leftIn(folder)).toEqual([])
    },
  )
})
