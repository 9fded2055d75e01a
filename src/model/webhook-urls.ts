/**
 * Which webhook URLs and addresses are allowed (docs/extensions.md section 4, URL safety). Pure
 * code, no `node:net`: the handler that checks URLs on create and update runs in browsers, Bun and
 * Deno too, and `net.BlockList` neither exists everywhere nor maps `::ffff:a.b.c.d` to IPv4.
 */

/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048

/** [first byte(s) as a 32-bit prefix, prefix length] of the forbidden IPv4 networks. */
const FORBIDDEN_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // unspecified, "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
]

function parseV4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null
    value = value * 256 + Number(part)
  }
  return value
}

const V4_NETWORKS = FORBIDDEN_V4.map(([base, bits]) => [parseV4(base)!, bits] as const)

function forbiddenV4(value: number): boolean {
  return V4_NETWORKS.some(
    ([base, bits]) => Math.floor(value / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
  )
}

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail allowed), or null. */
function parseV6(text: string): number[] | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  body = body.replace(/%.*$/, '') // a zone id (fe80::1%eth0) names an interface, not an address
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(body)
  if (tail !== null) {
    const v4 = parseV4(tail[1]!)
    if (v4 === null) return null
    body = `${body.slice(0, -tail[1]!.length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const halves = body.split('::')
  if (halves.length > 2) return null
  const groups = (half: string) => (half === '' ? [] : half.split(':'))
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest]
  if (!all.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null
  return all.map((group) => Number.parseInt(group, 16))
}

/**
 * True for an IP address a webhook must never reach: loopback, private, link-local, carrier-grade
 * NAT, unique-local, multicast, unspecified and reserved addresses, IPv4 and IPv6, including IPv4
 * inside IPv6 (`::ffff:10.0.0.1`, `::10.0.0.1`, `64:ff9b::10.0.0.1`). Anything that is not an IP
 * address is forbidden too.
 *
 * @example
 * isForbiddenAddress('169.254.169.254') // true
 * isForbiddenAddress('::ffff:127.0.0.1') // true
 * isForbiddenAddress('93.184.216.34') // false
 */
export function isForbiddenAddress(address: string): boolean {
  const v4 = parseV4(address)
  if (v4 !== null) return forbiddenV4(v4)
  const g = parseV6(address)
  if (g === null) return true
  const embeddedV4 = g[6]! * 65536 + g[7]!
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeros(5) && g[5] === 0xffff) return forbiddenV4(embeddedV4) // IPv4-mapped
  if (zeros(6)) return true // unspecified, loopback and the deprecated IPv4-compatible block
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return forbiddenV4(embeddedV4) // NAT64
  if ((g[0]! & 0xfe00) === 0xfc00) return true // unique-local fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return true // link-local fe80::/10
  if ((g[0]! & 0xff00) === 0xff00) return true // multicast ff00::/8
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true // documentation
  return false
}

/** True when `host` (a URL's hostname, IPv6 in brackets) is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  return parseV4(host) !== null || (host.startsWith('[') && parseV6(host) !== null)
}

/**
 * What lifts the refusals of local receivers: the option's name only (public in the docs), never a
 * configured value, so the message says nothing of the server beyond what the package documents.
 */
const UNLESS = ' (unless allowInsecureUrls is set)'

/**
 * Why a webhook URL is refused on create and update, or null when it is acceptable: not a URL,
 * over {@link MAX_WEBHOOK_URL_LENGTH} characters, not `https` (`http` too when `allowInsecure`),
 * with credentials or a fragment, or naming a forbidden address or `localhost` literally (unless
 * `allowInsecure`). Names are resolved, and checked again, at every delivery.
 *
 * @example
 * webhookUrlProblem('http://example.com/hook', false) // 'Must be an https URL (unless allowInsecureUrls is set)'
 * webhookUrlProblem('https://example.com/hook', false) // null
 */
export function webhookUrlProblem(url: string, allowInsecure: boolean): string | null {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `Must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'Must be an absolute URL'
  }
  const schemes = allowInsecure ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(parsed.protocol))
    return allowInsecure ? 'Must be an http(s) URL' : `Must be an https URL${UNLESS}`
  if (parsed.username !== '' || parsed.password !== '') return 'Must not contain credentials'
  if (parsed.hash !== '' || url.includes('#')) return 'Must not contain a fragment'
  if (parsed.hostname === '') return 'Must name a host'
  if (!allowInsecure) {
    const host = parsed.hostname.toLowerCase()
    if (host === 'localhost' || host.endsWith('.localhost')) return `Must not name a local host${UNLESS}`
    if (isIpLiteral(host) && isForbiddenAddress(host)) return `Must not name a private or reserved address${UNLESS}`
  }
  return null
}
