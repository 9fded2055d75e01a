/**
 * Run by plain Node (no loader, no aliases), so that the package resolves as an app's would: loads
 * the ESM build (dist/*.js) and the CJS build (dist/*.cjs, through require) side by side and serves
 * an API of one format through a mount of the other, on the Node and the Express mounts, and runs a
 * webhook dispatcher of one format over a store of the other. Prints one JSON line: where the
 * package's own name resolves from dist/, the port of each server and what each dispatcher did.
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
  webhooks: await import('../../dist/webhooks.js'),
}
const cjs = {
  core: require('../../dist/index.cjs'),
  node: require('../../dist/node.cjs'),
  express: require('../../dist/express.cjs'),
  webhooks: require('../../dist/webhooks.cjs'),
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

/** A dispatcher of one format over a store (and API) of the other: one event, delivered to a local receiver. */
async function dispatchAcross(storeFrom, dispatcherFrom) {
  let received = 0
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received += 1
      response.writeHead(204).end()
    })
  })
  const port = await listen(receiver)
  const store = storeFrom.core.createMemoryStore()
  const handler = storeFrom.core.createPublicApi({
    store,
    keyResolver: keyResolver(storeFrom),
    webhooks: { allowInsecureUrls: true },
    onError: () => {},
  })
  const post = (path, body) =>
    handler(
      new Request(`http://x/api/public/v1${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
  await post('/webhook-endpoints', { url: `http://127.0.0.1:${port}/in`, events: ['*'] })
  const rule = {
    name: 'Mixed',
    triggerType: 'scheduled',
    triggerConfig: {},
    entityType: 'ticket',
    conditions: [],
    actions: [],
  }
  await post('/automation', rule)
  const dispatcher = dispatcherFrom.webhooks.createWebhookDispatcher({ store, allowInsecureUrls: true })
  const counts = await dispatcher.runOnce()
  receiver.close()
  return { ...counts, received }
}

const webhooks = {
  'esm dispatcher, cjs store': await dispatchAcross(cjs, esm),
  'cjs dispatcher, esm store': await dispatchAcross(esm, cjs),
}

console.log(
  JSON.stringify({
    webhooks,
    resolved: {
      import: import.meta.resolve('tenant-public-api'),
      require: require.resolve('tenant-public-api'),
    },
    twoCopies: esm.core.createPublicApi !== cjs.core.createPublicApi,
    ports,
  }),
)
