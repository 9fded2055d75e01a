/**
 * `tenant-public-api keys create|list|revoke`: API keys on a store through `createApiKeys`
 * (docs/api-keys.md, docs/cli.md). `create` prints the secret once (the store keeps its hash);
 * `list` prints what the store keeps, never a secret; scopes are checked against the one table.
 */
import { type ApiKey, createApiKeys, SCOPES, type Scope } from 'tenant-public-api'
import { BIN, CliError, type CommandSpec, misuse, type ParsedArgs, requiredOption, stringOption } from './args.js'
import { describeStore, openStore, persistentStore, STORE_FORMS } from './stores.js'

const STORE_OPTION = { value: 'STORE', description: `${STORE_FORMS} (default: DATABASE_URL)` }
const TENANT_OPTION = { value: 'ID', required: true, description: 'the tenant the keys belong to' }

/** The name a key gets when `--name` is not given. */
const DEFAULT_KEY_NAME = `${BIN} keys create`

export const keysCreateCommand: CommandSpec = {
  name: 'keys create',
  summary: "Creates an API key for a tenant and prints its secret once (the store keeps only the secret's hash).",
  details: [`The scopes a key may hold: ${SCOPES.join(', ')}.`, 'X.write also grants X.read.'],
  options: {
    store: STORE_OPTION,
    tenant: TENANT_OPTION,
    scopes: { value: 'a,b', description: 'comma-separated scopes (default: every scope)' },
    name: { value: 'NAME', description: `a name for people, 1..200 characters (default: "${DEFAULT_KEY_NAME}")` },
  },
}

export const keysListCommand: CommandSpec = {
  name: 'keys list',
  summary: "Lists a tenant's API keys, newest first, revoked and expired ones included; never a secret.",
  options: { store: STORE_OPTION, tenant: TENANT_OPTION },
}

export const keysRevokeCommand: CommandSpec = {
  name: 'keys revoke',
  summary: 'Revokes an API key of a tenant (by the id `keys list` shows): it stops working at once.',
  options: { store: STORE_OPTION, tenant: TENANT_OPTION },
  positionals: ['KEY_ID'],
}

/** The `--scopes` value as scopes of the table: a {@link UsageError} naming the unknown ones and the valid ones. */
function scopesOf(text: string | undefined): Scope[] {
  if (text === undefined) return [...SCOPES]
  const given = text
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '')
  const unknown = given.filter((scope) => !(SCOPES as readonly string[]).includes(scope))
  if (given.length === 0 || unknown.length > 0)
    throw misuse(
      keysCreateCommand,
      `${given.length === 0 ? '--scopes names no scope' : `unknown scope ${unknown.join(', ')}`}; ` +
        `the scopes are ${SCOPES.join(', ')}`,
    )
  return given as Scope[]
}

/** The store and tenant every `keys` command takes, the store opened. */
async function keysOn(command: CommandSpec, parsed: ParsedArgs) {
  const tenantId = requiredOption(parsed, 'tenant')
  const spec = persistentStore(command, stringOption(parsed, 'store'))
  const { store } = await openStore(spec)
  return { tenantId, spec, store, keys: createApiKeys(store) }
}

/** Runs `keys create`. */
export async function keysCreate(parsed: ParsedArgs): Promise<void> {
  const scopes = scopesOf(stringOption(parsed, 'scopes'))
  const name = stringOption(parsed, 'name') ?? DEFAULT_KEY_NAME
  const { tenantId, spec, store, keys } = await keysOn(keysCreateCommand, parsed)
  try {
    const { key, apiKey } = await keys.create({ tenantId, name, scopes })
    console.log(`Created key ${apiKey.id} "${apiKey.name}" for tenant ${tenantId} on ${describeStore(spec)}`)
    console.log(`Scopes: ${apiKey.scopes.join(', ')}`)
    console.log('The key, shown this once (only its hash is stored):')
    console.log(key)
  } finally {
    await store.close()
  }
}

/** What a key is now: active, revoked or expired, with when. */
function stateOf(key: ApiKey, now: number): string {
  if (key.revokedAt !== null) return `revoked ${key.revokedAt}`
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now) return `expired ${key.expiresAt}`
  return key.expiresAt === null ? 'active' : `active until ${key.expiresAt}`
}

/** Runs `keys list`: one block per key, never its secret (`start` is the first characters, for telling keys apart). */
export async function keysList(parsed: ParsedArgs): Promise<void> {
  const { tenantId, spec, store, keys } = await keysOn(keysListCommand, parsed)
  try {
    const list = await keys.list(tenantId)
    console.log(`${list.length} key${list.length === 1 ? '' : 's'} of tenant ${tenantId} on ${describeStore(spec)}`)
    const now = Date.now()
    for (const key of list) {
      console.log('')
      console.log(`${key.id}  ${key.start}…  "${key.name}"  ${stateOf(key, now)}`)
      console.log(`  scopes: ${key.scopes.join(', ')}`)
      console.log(`  created ${key.createdAt}, last used ${key.lastUsedAt ?? 'never'}`)
    }
  } finally {
    await store.close()
  }
}

/** Runs `keys revoke KEY_ID`: only a key of the named tenant (a mistyped id never revokes another tenant's key). */
export async function keysRevoke(parsed: ParsedArgs): Promise<void> {
  const id = parsed.positionals[0]!
  const { tenantId, store, keys } = await keysOn(keysRevokeCommand, parsed)
  try {
    const owned = (await keys.list(tenantId)).find((key) => key.id === id)
    if (owned === undefined) throw new CliError(`Tenant ${tenantId} has no key ${id} (see ${BIN} keys list)`)
    const revoked = await keys.revoke(id)
    console.log(`Revoked key ${id} "${owned.name}" of tenant ${tenantId} at ${revoked?.revokedAt ?? owned.revokedAt}`)
  } finally {
    await store.close()
  }
}
