/**
 * Where every mount leaves the client's address on the `Request` it hands to the API, so that a
 * `keyResolver` (or anything else holding the request) can read it with {@link clientAddress}
 * whatever the runtime. The key is a registered symbol, so that two copies of this package
 * (ESM and CJS builds loaded side by side) still agree on it.
 */

/** The property under which mounts store the client address on a request. */
export const CLIENT_ADDRESS = Symbol.for('tenant-public-api.client-address')

type WithAddress = { [CLIENT_ADDRESS]?: string | undefined }

/**
 * The address of the client that sent `request` (an IP address), as the mount that received it
 * saw it: the socket's peer, or with `trustProxy` the first `X-Forwarded-For` entry. `undefined`
 * when the request did not come through a mount (for example in tests, or under Next.js).
 *
 * @example
 * const keyResolver: KeyResolver = (token, request) =>
 *   allowList.has(clientAddress(request) ?? '') ? lookUp(token) : null
 */
export function clientAddress(request: Request): string | undefined {
  const value = (request as WithAddress)[CLIENT_ADDRESS]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * Records the client address on a request (used by the Bun and Deno mounts; the Node bridge reads
 * it lazily from the socket instead).
 *
 * @example
 * setClientAddress(request, server.requestIP(request)?.address)
 */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address === undefined) return
  Object.defineProperty(request, CLIENT_ADDRESS, { value: address, configurable: true })
}
