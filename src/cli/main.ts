#!/usr/bin/env node
/**
 * The `tenant-public-api` command (docs/cli.md): `serve`, `keys create|list|revoke`, `migrate` and
 * `seed`. Exit codes: 0 done, 1 the work failed (said in one message), 2 the command was called
 * wrongly (an unknown command, option or argument). No top-level await: the build also emits CJS.
 */
import { createRequire } from 'node:module'
import { StoreUnavailableError } from 'tenant-public-api'
import { BIN, CliError, type CommandSpec, commandHelp, type ParsedArgs, parseCommand, UsageError } from './args.js'
import { migrate, migrateCommand, seed, seedCommand } from './data.js'
import { keysCreate, keysCreateCommand, keysList, keysListCommand, keysRevoke, keysRevokeCommand } from './keys.js'
import { serve, serveCommand } from './serve.js'

/** Each command, by the words that name it, with what runs it. */
const COMMANDS: ReadonlyArray<{ spec: CommandSpec; run: (parsed: ParsedArgs) => Promise<void> }> = [
  { spec: serveCommand, run: serve },
  { spec: keysCreateCommand, run: keysCreate },
  { spec: keysListCommand, run: keysList },
  { spec: keysRevokeCommand, run: keysRevoke },
  { spec: migrateCommand, run: migrate },
  { spec: seedCommand, run: seed },
]

/** The package's version, read through its own name (the same from dist/ and from src/). */
function version(): string {
  return (createRequire(import.meta.url)('tenant-public-api/package.json') as { version: string }).version
}

/** The help of a group of commands (all of them, or those under `keys`). */
function groupHelp(prefix: string): string {
  const commands = COMMANDS.filter(({ spec }) => spec.name.startsWith(prefix))
  const width = Math.max(...commands.map(({ spec }) => spec.name.length))
  return [
    `Usage: ${BIN} ${prefix === '' ? '<command>' : `${prefix.trim()} <command>`} [options]`,
    '',
    ...(prefix === ''
      ? ['The public REST API of a multi-tenant IT-management portal: a demo server, API keys and data.', '']
      : []),
    'Commands:',
    ...commands.map(({ spec }) => `  ${spec.name.padEnd(width)}  ${spec.summary}`),
    '',
    `${BIN} <command> --help shows a command's options.${prefix === '' ? ` ${BIN} --version: the version.` : ''}`,
  ].join('\n')
}

/** Runs the command `args` names; resolves with the exit code, or undefined when it keeps running (`serve`). */
async function run(args: readonly string[]): Promise<number | undefined> {
  const [first, second] = args
  if (first === '--version' && args.length === 1) {
    console.log(version())
    return 0
  }
  if (first === undefined || first === '--help' || first === '-h') {
    const asked = first !== undefined
    ;(asked ? console.log : console.error)(groupHelp(''))
    return asked ? 0 : 2
  }
  if (first === 'keys' && (second === undefined || second === '--help' || second === '-h')) {
    ;(second !== undefined ? console.log : console.error)(groupHelp('keys '))
    return second !== undefined ? 0 : 2
  }
  const words = first === 'keys' ? `keys ${second}` : first
  const command = COMMANDS.find(({ spec }) => spec.name === words)
  if (command === undefined) {
    const known = first === 'keys' ? 'create, list, revoke' : 'serve, keys, migrate, seed'
    const what = first.startsWith('-') ? `unknown option ${first}` : `unknown command ${words}`
    throw new UsageError(`${BIN}: ${what} (the commands are ${known}; see ${BIN} --help)`)
  }
  const parsed = parseCommand(command.spec, args.slice(words.split(' ').length))
  if (parsed.help) {
    console.log(commandHelp(command.spec))
    return 0
  }
  await command.run(parsed)
  return command.spec === serveCommand ? undefined : 0
}

/** The exit code of a failure, after saying it on stderr: one message, no stack, for what the user can fix. */
function failed(error: unknown): number {
  if (error instanceof UsageError) {
    console.error(error.message)
    return 2
  }
  // A TypeError is the package's word on bad input (a seed record, a key's name): said as it is.
  if (error instanceof CliError || error instanceof TypeError) console.error(error.message)
  else if (error instanceof StoreUnavailableError || typeof (error as { code?: unknown } | null)?.code === 'string') {
    const cause = (error as { cause?: unknown }).cause
    console.error(`${BIN}: ${(error as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}`)
  } else console.error(error) // anything else is a bug: its stack helps whoever reports it
  return 1
}

/**
 * Ends the process with `code` once stdout and stderr are written out: a finished command leaves
 * nothing running, but a driver that failed half-way (a pool still connecting) must not keep it alive.
 */
function exit(code: number): void {
  process.exitCode = code
  setTimeout(() => process.exit(code), 1_000).unref()
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) exit(code)
  },
  (error: unknown) => exit(failed(error)),
)
