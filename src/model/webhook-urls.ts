/**
 * Which webhook URLs and addresses are allowed (docs/extensions.md section 4, URL safety). Pure
 * code, no `node:net`: the handler that checks URLs on create and update runs in browsers, Bun and
 * Deno too, and `net.BlockList` neither exists everywhere nor maps `::ffff:a.b.c.d` to IPv4.
 */

/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048

/**
 * A special-purpose block: its prefix, what it is and where it is defined. `embedsV4`: the address
 * reaches the IPv4 address in its last 32 bits, so it is judged as that address.
 */
export interface SpecialPurposeBlock {
  block: string
  name: string
  source: string
  embedsV4?: true
}

/**
 * Every address block a webhook must never reach: each entry of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (iana.org/assignments/iana-ipv4-special-registry and
 * iana-ipv6-special-registry, globally reachable or not: none is a place for a receiver), IPv4
 * and IPv6 multicast, and the deprecated IPv6 site-local and IPv4-compatible blocks. The one
 * table of create-time and delivery-time checks (docs/webhooks.md, URL safety).
 */
export const SPECIAL_PURPOSE_BLOCKS: readonly SpecialPurposeBlock[] = [
  { block: '0.0.0.0/8', name: '"This network" (0.0.0.0/32: "this host")', source: 'RFC 791, RFC 1122' },
  { block: '10.0.0.0/8', name: 'Private-Use', source: 'RFC 1918' },
  { block: '100.64.0.0/10', name: 'Shared Address Space (carrier-grade NAT)', source: 'RFC 6598' },
  { block: '127.0.0.0/8', name: 'Loopback', source: 'RFC 1122' },
  { block: '169.254.0.0/16', name: 'Link Local (cloud metadata services)', source: 'RFC 3927' },
  { block: '172.16.0.0/12', name: 'Private-Use', source: 'RFC 1918' },
  {
    block: '192.0.0.0/24',
    name: 'IETF Protocol Assignments (DS-Lite, PCP, TURN, NAT64 discovery)',
    source: 'RFC 6890',
  },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', source: 'RFC 5737' },
  { block: '192.31.196.0/24', name: 'AS112-v4', source: 'RFC 7535' },
  { block: '192.52.193.0/24', name: 'AMT', source: 'RFC 7450' },
  { block: '192.88.99.0/24', name: 'Deprecated 6to4 Relay Anycast', source: 'RFC 7526' },
  { block: '192.168.0.0/16', name: 'Private-Use', source: 'RFC 1918' },
  { block: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', source: 'RFC 7534' },
  { block: '198.18.0.0/15', name: 'Benchmarking', source: 'RFC 2544' },
  { block: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', source: 'RFC 5737' },
  { block: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', source: 'RFC 5737' },
  { block: '224.0.0.0/4', name: 'Multicast (IANA IPv4 Multicast Address Space Registry)', source: 'RFC 5771' },
  { block: '240.0.0.0/4', name: 'Reserved (255.255.255.255/32: Limited Broadcast)', source: 'RFC 1112, RFC 919' },
  { block: '::/128', name: 'Unspecified Address', source: 'RFC 4291' },
  { block: '::1/128', name: 'Loopback Address', source: 'RFC 4291' },
  { block: '::/96', name: 'IPv4-Compatible, deprecated (within ::/8, reserved by the IETF)', source: 'RFC 4291' },
  { block: '::ffff:0:0/96', name: 'IPv4-mapped Address', source: 'RFC 4291', embedsV4: true },
  { block: '::ffff:0:0:0/96', name: 'IPv4-translated Address (SIIT)', source: 'RFC 2765', embedsV4: true },
  { block: '64:ff9b::/96', name: 'IPv4-IPv6 Translation, well-known NAT64 prefix', source: 'RFC 6052', embedsV4: true },
  { block: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translation, local-use NAT64', source: 'RFC 8215' },
  { block: '100::/64', name: 'Discard-Only Address Block', source: 'RFC 6666' },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', source: 'RFC 9780' },
  { block: '2001::/23', name: 'IETF Protocol Assignments (PCP, TURN, AMT, AS112, ORCHID, ...)', source: 'RFC 2928' },
  { block: '2001::/32', name: 'TEREDO', source: 'RFC 4380' },
  { block: '2001:db8::/32', name: 'Documentation', source: 'RFC 3849' },
  { block: '2002::/16', name: '6to4', source: 'RFC 3056' },
  { block: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', source: 'RFC 7534' },
  { block: '3fff::/20', name: 'Documentation', source: 'RFC 9637' },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', source: 'RFC 9602' },
  { block: 'fc00::/7', name: 'Unique-Local', source: 'RFC 4193' },
  { block: 'fe80::/10', name: 'Link-Local Unicast', source: 'RFC 4291' },
  { block: 'fec0::/10', name: 'Site-Local, deprecated', source: 'RFC 3879' },
  { block: 'ff00::/8', name: 'Multicast', source: 'RFC 4291' },
]

/** An IPv4 address as two 16-bit groups, or null. */
function parseV4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null
    value = value * 256 + Number(part)
  }
  return [Math.floor(value / 65536), value % 65536]
}

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tail allowed), or null. */
function parseV6(text: string): number[] | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  body = body.replace(/%.*$/, '') // a zone id (fe80::1%eth0) names an interface, not an address
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(body)
  if (tail !== null) {
    const v4 = parseV4(tail[1]!)
    if (v4 === null) return null
    body = `${body.slice(0, -tail[1]!.length)}${v4[0]!.toString(16)}:${v4[1]!.toString(16)}`
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

/** The table parsed once: each block's family, groups and prefix length. */
const BLOCKS = SPECIAL_PURPOSE_BLOCKS.map((entry) => {
  const [base, bits] = entry.block.split('/') as [string, string]
  const v4 = parseV4(base)
  return { v6: v4 === null, groups: (v4 ?? parseV6(base))!, bits: Number(bits), embedsV4: entry.embedsV4 === true }
})

/** Whether the first `bits` bits of `groups` (16-bit groups) are those of `prefix`. */
function inBlock(groups: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const mask = (0xffff << (16 - Math.min(16, bits - i * 16))) & 0xffff
    if ((groups[i]! & mask) !== (prefix[i]! & mask)) return false
  }
  return true
}

/** Forbidden when in a block of the table; an IPv4-embedding block is judged by the IPv4 it reaches. */
function forbidden(groups: readonly number[], v6: boolean): boolean {
  return BLOCKS.some(
    (block) =>
      block.v6 === v6 &&
      inBlock(groups, block.groups, block.bits) &&
      (!block.embedsV4 || forbidden(groups.slice(6), false)),
  )
}

/**
 * True for an IP address a webhook must never reach: one in a block of
 * {@link SPECIAL_PURPOSE_BLOCKS} (loopback, private, link-local, carrier-grade NAT, unique-local,
 * multicast, unspecified, documentation, 6to4, Teredo, NAT64 local-use, site-local and the rest).
 * An IPv4-mapped, IPv4-translated or well-known NAT64 address is judged as the IPv4 address it
 * reaches (`::ffff:10.0.0.1`, `64:ff9b::7f00:1`: forbidden; `64:ff9b::8.8.8.8`: allowed). Anything
 * that is not an IP address is forbidden too.
 *
 * @example
 * isForbiddenAddress('169.254.169.254') // true
 * isForbiddenAddress('::ffff:0:127.0.0.1') // true
 * isForbiddenAddress('93.184.216.34') // false
 */
export function isForbiddenAddress(address: string): boolean {
  const v4 = parseV4(address)
  if (v4 !== null) return forbidden(v4, false)
  const v6 = parseV6(address)
  return v6 === null || forbidden(v6, true)
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
    // `localhost.` is `localhost` too: a name's trailing dot only says it is fully qualified.
    const host = parsed.hostname.toLowerCase().replace(/\.+$/, '')
    if (host === 'localhost' || host.endsWith('.localhost')) return `Must not name a local host${UNLESS}`
    if (isIpLiteral(host) && isForbiddenAddress(host)) return `Must not name a private or reserved address${UNLESS}`
  }
  return null
}
