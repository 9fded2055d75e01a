/**
 * The CLI's commands as data (docs/cli.md): each names its options once, and its help text and
 * argument checks are made from that. Arguments are read by `node:util`'s `parseArgs` (strict):
 * an unknown command, option or argument is a {@link UsageError} (exit code 2).
 */
import { parseArgs } from 'node:util'

/** The name the package's `bin` installs. */
export const BIN = 'tenant-public-api'

/** A mistake in how the command was called: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A failure the user can act on, said in one message (no stack): exit code 1. */
export class CliError extends Error {
  override name = 'CliError'
}

/** One option of a command: `--name VALUE`, or a flag without a value when `value` is absent. */
export interface OptionSpec {
  /** What the value is called in the help (`N`, `FILE`); absent for a flag. */
  value?: string
  /** The command cannot do without it (shown without brackets in the usage line). */
  required?: boolean
  description: string
}

/** A command: its words (`keys create`), what it does, its options and positional arguments. */
export interface CommandSpec {
  name: string
  summary: string
  /** More of the help, after the summary: defaults, examples. */
  details?: readonly string[]
  options: Readonly<Record<string, OptionSpec>>
  /** Positional arguments, each required: their names in the help (`FILE.json`). */
  positionals?: readonly string[]
}

/** What `parseArgs` gave for a command: option values by name, and the positional arguments. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>
  positionals: string[]
  help: boolean
}

/** The usage line of a command: `tenant-public-api keys create --store STORE ...`. */
function usageLine(command: CommandSpec): string {
  const options = Object.entries(command.options).map(([name, spec]) => {
    const option = spec.value === undefined ? `--${name}` : `--${name} ${spec.value}`
    return spec.required === true ? option : `[${option}]`
  })
  return [BIN, command.name, ...options, ...(command.positionals ?? [])].join(' ')
}

/** The `--help` text of a command. */
export function commandHelp(command: CommandSpec): string {
  const rows = [
    ...Object.entries(command.options).map(([name, spec]) => [
      `--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`,
      spec.description,
    ]),
    ['-h, --help', 'show this help'],
  ]
  const width = Math.max(...rows.map(([left]) => left!.length))
  return [
    `Usage: ${usageLine(command)}`,
    '',
    command.summary,
    ...(command.details === undefined ? [] : ['', ...command.details]),
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`),
  ].join('\n')
}

/** The quoted token of a `parseArgs` error message (`'--port'`), if it names one. */
function quoted(message: string): string | undefined {
  return /'([^']+)'/.exec(message)?.[1]
}

/** `parseArgs`' errors said as the CLI says them, naming the command and its `--help`. */
function usageErrorOf(command: CommandSpec, error: unknown): UsageError {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  const token = quoted(message)
  let what = message
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && token !== undefined) what = `unknown option ${token}`
  else if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && token !== undefined) what = `unexpected argument ${token}`
  else if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && token !== undefined)
    what = `${token.split(' ')[0]} needs a value`
  return misuse(command, what)
}

/** A {@link UsageError} of `command`, pointing at its help. */
export function misuse(command: CommandSpec, what: string): UsageError {
  return new UsageError(`${BIN} ${command.name}: ${what} (see ${BIN} ${command.name} --help)`)
}

/**
 * Reads `args` for `command`: a {@link UsageError} for an unknown option, a missing value or a
 * positional argument more or less than the command takes (unless `--help` is asked for).
 *
 * @example
 * parseCommand(seedCommand, ['--store', 'sqlite:app.db', 'data.json'])
 */
export function parseCommand(command: CommandSpec, args: readonly string[]): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, spec]) => [
      name,
      { type: spec.value === undefined ? ('boolean' as const) : ('string' as const) },
    ]),
  )
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw usageErrorOf(command, error)
  }
  const { help, ...values } = parsed.values as Record<string, string | boolean | undefined>
  const wanted = command.positionals ?? []
  if (help !== true && parsed.positionals.length !== wanted.length) {
    const what =
      parsed.positionals.length > wanted.length
        ? `unexpected argument ${parsed.positionals[wanted.length]}`
        : `missing ${wanted.slice(parsed.positionals.length).join(' ')}`
    throw misuse(command, what)
  }
  for (const [name, value] of Object.entries(values))
    if (typeof value === 'string' && value === '') throw misuse(command, `--${name} is empty`)
  if (help !== true)
    for (const [name, spec] of Object.entries(command.options))
      if (spec.required === true && values[name] === undefined) throw misuse(command, `--${name} is required`)
  return { values, positionals: parsed.positionals, help: help === true }
}

/** A string option's value, or undefined. */
export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name]
  return typeof value === 'string' ? value : undefined
}

/** A string option marked `required` (parseCommand has checked it is there). */
export function requiredOption(parsed: ParsedArgs, name: string): string {
  return stringOption(parsed, name)!
}
