/**
 * The `Headers` the bundled SDK sees (through sdk-globals.ts, which says why) and `httpFetch`'s
 * responses carry: on Node 20 the global one lives in undici, which a cold `sous -p` never needs.
 *
 * The WHATWG behaviour the SDK relies on: names are case-insensitive and listed lower-cased and
 * sorted, `append` joins repeated values with ", ", `get` of a missing name is null, and an init
 * may be another Headers, an array of pairs or a record. Invalid names and values throw as the
 * global does (a header must not smuggle a line break onto the wire).
 */
export class LightHeaders implements Iterable<[string, string]> {
  private readonly map = new Map<string, string>()

  constructor(init?: LightHeadersInit) {
    if (!init) return
    if (isIterable(init)) for (const [name, value] of init) this.append(name, value)
    else for (const [name, value] of Object.entries(init)) if (value !== undefined) this.append(name, String(value))
  }

  append(name: string, value: string): void {
    const key = checkedName(name)
    const clean = checkedValue(value)
    const existing = this.map.get(key)
    this.map.set(key, existing === undefined ? clean : `${existing}, ${clean}`)
  }

  set(name: string, value: string): void {
    this.map.set(checkedName(name), checkedValue(value))
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase())
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase())
  }

  /** Set-Cookie values, one entry each (joined by `append` like any other header here). */
  getSetCookie(): string[] {
    const value = this.map.get('set-cookie')
    return value === undefined ? [] : [value]
  }

  forEach(callback: (value: string, name: string, headers: LightHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this)
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.map.keys()].sort()) yield [name, this.map.get(name)!]
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }
}

/** What a {@link LightHeaders} may be built from. */
export type LightHeadersInit = Iterable<readonly [string, string]> | Record<string, string | undefined>

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

function checkedName(name: string): string {
  const text = String(name)
  if (!TOKEN.test(text)) throw new TypeError(`Headers: invalid header name "${text}"`)
  return text.toLowerCase()
}

function checkedValue(value: string): string {
  const text = String(value).replace(/^[\t ]+|[\t ]+$/g, '')
  if (/[\r\n\0]/.test(text)) throw new TypeError('Headers: invalid header value (line break or NUL)')
  return text
}

function isIterable(value: unknown): value is Iterable<readonly [string, string]> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
}
