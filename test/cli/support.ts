/**
 * Running the CLI as a user does: the built `dist/cli.js` (test/global-setup.ts builds dist/ once
 * per run) in a child process, in a folder of the test's own, with its output and exit code; and
 * `serve` started until it prints its curl lines.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** The repository root. */
export const root = resolve(import.meta.dirname, '../..')

/** The built CLI, as package.json's `bin` names it. */
export const CLI = join(root, 'dist/cli.js')

/** What a finished command left. */
export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment of a CLI run: the test run's, without DATABASE_URL unless given (it picks a store). */
function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _chosenByTheRun, ...rest } = process.env
  return { ...rest, ...env }
}

/** A folder for one test file, removed by the returned function. */
export function scratchFolder(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `tpa-cli-${prefix}-`))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Runs `node dist/cli.js ...args` in `cwd` to its end (at most `timeoutMs`).
 *
 * @example
 * const { code, stdout } = await runCli(['keys', 'list', '--store', 'sqlite:a.db', '--tenant', 't'], { cwd })
 */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number; command?: string[] },
): Promise<CliResult> {
  const command = options.command ?? [process.execPath, CLI]
  const child = spawn(command[0]!, [...command.slice(1), ...args], {
    cwd: options.cwd,
    env: cliEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${args.join(' ')}: no end within ${options.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`))
    }, options.timeoutMs ?? 60_000)
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr })
    })
  })
}

/** A running `serve`: its process, what it printed, and its base URL and key. */
export interface Served {
  child: ChildProcess
  banner: string
  base: string
  key: string
  curlLines: string[]
}

/** Every `serve` started, killed after the test file by {@link killServers}. */
const started: ChildProcess[] = []

/**
 * Starts `serve` (the built CLI unless `command` says otherwise) and resolves once it has printed
 * its last curl line; rejects with its output when it exits first.
 */
export function startServe(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined>; command?: string[] },
): Promise<Served> {
  const command = options.command ?? [process.execPath, CLI]
  const child = spawn(command[0]!, [...command.slice(1), 'serve', ...args], {
    cwd: options.cwd,
    env: cliEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  return new Promise((resolvePromise, reject) => {
    let banner = ''
    let errors = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      banner += chunk.toString()
      if (!/^Ctrl-C stops the server\.$/m.test(banner)) return
      const base = /listening on (\S+)/.exec(banner)?.[1] ?? ''
      const key = /Demo key \(every scope\): (\S+)/.exec(banner)?.[1] ?? ''
      const curlLines = banner.split('\n').filter((line) => line.startsWith('curl '))
      resolvePromise({ child, banner, base, key, curlLines })
    })
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${banner}${errors}`)))
  })
}

/** Sends `signal` and resolves with the exit code once the process has ended. */
export function stopWith(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolvePromise) => {
    child.once('exit', (code) => resolvePromise(code))
    child.kill(signal)
  })
}

/** Kills whatever `serve` a test left running. */
export function killServers(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

/** The JSON body and status of a GET with a bearer key. */
export async function getJson(url: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
  return { status: response.status, body: await response.json() }
}

/** The secret `keys create` printed: its last line. */
export function printedKey(stdout: string): string {
  const key = stdout.trim().split('\n').at(-1)!
  if (!/^tpa_[0-9A-Za-z]{38}$/.test(key)) throw new Error(`no key in: ${stdout}`)
  return key
}
