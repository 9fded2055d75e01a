/**
 * Run by plain Node (no loader, no aliases), so that the package resolves as an app's would: loads
 * the ESM build (dist/*.js) and the CJS build (dist/*.cjs, through require) side by side and serves
 * an API of one format through a mount of the other, on the Node and the Express mounts. Prints one
 * JSON line: where the package's own name resolves from dist/, and the port of each server.
 *
 * Env: SEED (the seed, as JSON), TENANT.
 */
import { createServer } from 'node:http'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const esm = {
  core: await import('../../dist/index.js'),
  node: await import('../../dist/node.js'),
  express: await import('../../dist/express.js'),
}
const cjs = {
  core: require('../../dist/index.cjs'),
  node: require('../../dist/node.cjs'),
  express: require('../../dist/express.cjs'),
}
const express = require('express')
const tenant = process.env.TENANT
const seed = JSON.parse(process.env.SEED)

/** A key resolver built with the other copy's ApiError: `Bearer suspended` is refused with its own error. */
function keyResolver(other) {
  return (token) => {
    if (token === 'suspended') throw new other.core.ApiError('INSUFFICIENT_SCOPE', 'This key is suspended')
    if (token !== 'good') return null
    return { tenantId: tenant, keyId: 'k1', scopes: [...other.core.SCOPES], actor: { id: 'u1', name: 'Ada' } }
  }
}

async function api(from, other) {
  const store = from.core.createMemoryStore()
  await store.seed(tenant, seed)
  return from.core.createPublicApi({ store, keyResolver: keyResolver(other), onError: () => {} })
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
}

const ports = {}
for (const [name, apiFrom, mountFrom] of [
  ['esm api, cjs mount', esm, cjs],
  ['cjs api, esm mount', cjs, esm],
]) {
  const handler = await api(apiFrom, mountFrom)
  ports[`node: ${name}`] = await listen(createServer(mountFrom.node.toNodeHandler(handler)))
  const app = express()
  app.use(mountFrom.express.toExpressMiddleware(handler))
  ports[`express: ${name}`] = await listen(createServer(app))
}

console.log(
  JSON.stringify({
    resolved: {
      import: import.meta.resolve('tenant-public-api'),
      require: require.resolve('tenant-public-api'),
    },
    twoCopies: esm.core.createPublicApi !== cjs.core.createPublicApi,
    ports,
  }),
)
