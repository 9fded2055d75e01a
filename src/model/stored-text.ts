/**
 * A deep-frozen record's stored text: its JSON text, kept on the record itself so replies reuse it
 * (src/http/reply-json.ts joins a page of records' texts instead of serialising them again).
 *
 * The text is a property of the record, not an entry in a module-wide table: a non-enumerable own
 * property under a registered symbol, holding a small mutable holder. `deepFreeze`
 * (src/model/frozen-records.ts) attaches it before freezing (a frozen object takes no new property),
 * and only to what freezing makes immutable. So it is visible on the record
 * (`Object.getOwnPropertySymbols`) and copied with nothing else: spread, `Object.assign`,
 * `structuredClone` and `JSON.stringify` skip non-enumerable symbol keys, so a copy, which may
 * change, never carries a text that could go stale. The holder names its record, so an object that
 * does reach it (a copy made by property descriptors, or one whose prototype is the record) is not
 * mistaken for the record.
 */

/** The key of a record's {@link StoredText}; registered, so every copy of the library agrees on it. */
const STORED_TEXT: unique symbol = Symbol.for('tenant-public-api.stored-text')

/** What a deep-frozen record keeps of its text. Mutable: a frozen record's holder fills in on first use. */
export interface StoredText {
  /** The record this holder belongs to. */
  readonly record: object
  /** Its JSON text: the text it was parsed from, or `JSON.stringify` of it once first asked for. */
  json: string | undefined
  /** The same text escaped as the contents of a JSON string, made once when first asked for. */
  string: string | undefined
}

/**
 * Gives `record` an empty holder for its text (`frozenFromJson` then fills in the text it parsed).
 * Must be called before `record` is frozen, and only on what freezing makes immutable (plain data
 * all the way down); does nothing, and returns false, on an object that cannot take the property
 * (not extensible, or a copy already carrying another record's holder).
 *
 * @example
 * keepStoredText(record)
 * Object.freeze(record)
 */
export function keepStoredText(record: object): boolean {
  const holder: StoredText = { record, json: undefined, string: undefined }
  // A descriptor's defaults: not enumerable (spread, Object.assign, structuredClone and JSON.stringify
  // leave it behind), not writable, not configurable. Reflect answers false, without throwing, where
  // the property cannot go (not extensible, or a copy's own holder already there): cheaper than asking.
  return Reflect.defineProperty(record, STORED_TEXT, { value: holder })
}

/**
 * The holder of `value`'s text, when `value` is a record `deepFreeze` made immutable;
 * `undefined` for anything else (it may still change).
 *
 * @example
 * const stored = storedTextOf(record)
 * if (stored) stored.json = text
 */
export function storedTextOf(value: object): StoredText | undefined {
  const holder = (value as { [STORED_TEXT]?: StoredText })[STORED_TEXT]
  return holder !== undefined && holder.record === value ? holder : undefined
}

/**
 * The JSON text of a deep-frozen record: the text it was parsed from, or made once and kept;
 * `undefined` for anything that is not deep-frozen plain data (it may still change).
 *
 * @example
 * const text = storedJsonText(record) ?? JSON.stringify(record)
 */
export function storedJsonText(value: object): string | undefined {
  const stored = storedTextOf(value)
  if (stored === undefined) return undefined
  if (stored.json === undefined) stored.json = JSON.stringify(value)
  return stored.json
}

/**
 * The JSON text of a deep-frozen record escaped as the contents of a JSON string (what goes between
 * the quotes of `JSON.stringify(text)`), made once and kept: an MCP tool result carries a page both
 * as JSON and as a string of it (docs/mcp.md). `undefined` where {@link storedJsonText} is.
 *
 * @example
 * storedStringText(deepFreeze({ a: 1 })) // '{\\"a\\":1}'
 */
export function storedStringText(value: object): string | undefined {
  const stored = storedTextOf(value)
  if (stored === undefined) return undefined
  if (stored.string === undefined) {
    if (stored.json === undefined) stored.json = JSON.stringify(value)
    stored.string = jsonStringContents(stored.json)
  }
  return stored.string
}

/**
 * `text` escaped as the contents of a JSON string: `JSON.stringify(text)` without its quotes.
 * Escaping goes character by character, so the contents of a joined text are the joined contents.
 *
 * @example
 * jsonStringContents('{"a":1}') // '{\\"a\\":1}'
 */
export function jsonStringContents(text: string): string {
  return JSON.stringify(text).slice(1, -1)
}
