import { describe, expect, it } from 'vitest'
import { LightHeaders } from './light-headers'
import { FormData as SdkFormData } from './sdk-globals'

/** The same operations on ours and on the global Headers (the oracle): the same entries after each. */
function both(run: (headers: { append(n: string, v: string): void; set(n: string, v: string): void; delete(n: string): void }) => void): [string[][], string[][]] {
  const light = new LightHeaders()
  const global = new Headers()
  run(light)
  run(global)
  return [[...light.entries()], [...global.entries()]]
}

describe('LightHeaders', () => {
  it('behaves as the global Headers for what the SDK does: case, joined values, sorted names, delete', () => {
    const [light, global] = both((headers) => {
      headers.append('X-Stainless-Lang', 'js')
      headers.append('anthropic-beta', 'a')
      headers.append('Anthropic-Beta', 'b')
      headers.set('Content-Type', ' application/json ')
      headers.set('x-api-key', 'one')
      headers.set('X-Api-Key', 'two')
      headers.append('gone', '1')
      headers.delete('GONE')
    })
    expect(light).toEqual(global)
  })

  it('is built from a record, pairs or another Headers, and reads as the global one', () => {
    const fromRecord = new LightHeaders({ Accept: 'application/json', Skip: undefined })
    const fromPairs = new LightHeaders([['accept', 'application/json']])
    const fromHeaders = new LightHeaders(new Headers({ ACCEPT: 'application/json' }))
    for (const headers of [fromRecord, fromPairs, fromHeaders]) {
      expect(headers.get('Accept')).toBe('application/json')
      expect(headers.has('accept')).toBe(true)
      expect(headers.get('missing')).toBeNull()
      expect([...headers.keys()]).toEqual(['accept'])
    }
    const seen: string[] = []
    fromRecord.forEach((value, name) => seen.push(`${name}=${value}`))
    expect(seen).toEqual(['accept=application/json'])
    expect(Object.prototype.toString.call(fromRecord)).toBe('[object Headers]')
  })

  it('refuses a line break in a value and a bad name, as the global does (no header smuggling)', () => {
    for (const make of [() => new LightHeaders(), () => new Headers()]) {
      expect(() => make().set('x-a', 'one\r\nx-b: two')).toThrow(TypeError)
      expect(() => make().append('bad name', 'v')).toThrow(TypeError)
    }
  })
})

describe("the SDK's FormData check", () => {
  it('is true for a real FormData only, and a plain JSON body does not reach the global', () => {
    expect(new FormData() instanceof (SdkFormData as unknown as typeof FormData)).toBe(true)
    expect({ model: 'x' } instanceof (SdkFormData as unknown as typeof FormData)).toBe(false)
    expect(('text' as unknown as object) instanceof (SdkFormData as unknown as typeof FormData)).toBe(false)
    expect((null as unknown) instanceof (SdkFormData as unknown as typeof FormData)).toBe(false)
  })
})
