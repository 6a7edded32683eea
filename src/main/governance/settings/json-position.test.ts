import { describe, expect, it } from 'vitest'
import { firstJsonError, jsonErrorPosition } from './json-position'

function at(text: string): { line: number; column: number } {
  try {
    JSON.parse(text)
  } catch (e) {
    return jsonErrorPosition(text, (e as Error).message)
  }
  throw new Error('parsed')
}

describe('JSON error positions', () => {
  it('finds errors V8 reports without a position', () => {
    expect(at('{\n  "allow": ["a",]\n}')).toEqual({ line: 2, column: 17 })
    expect(at('{\n  "a": 1,\n}')).toEqual({ line: 3, column: 1 })
    expect(at('{\n  "a": tru\n}')).toEqual({ line: 2, column: 8 })
  })

  it('finds missing commas, unterminated strings and trailing garbage', () => {
    expect(at('{"a": [1 2]}')).toEqual({ line: 1, column: 10 })
    expect(at('{"a": "x')).toEqual({ line: 1, column: 9 })
    expect(at('{} x')).toEqual({ line: 1, column: 4 })
  })

  it('agrees with JSON.parse on valid input', () => {
    for (const t of ['{}', '[]', '{"a":[1,-2.5e3,true,null,"\\u00e9\\n"]}', ' 0 ']) expect(firstJsonError(t)).toBeUndefined()
  })
})

describe('firstJsonError', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const text of ['{}', ' [1, -2.5e3, "a\\n\\u00e9", true, false, null, {"k": []}] ', '"x"', '0']) {
      expect(() => JSON.parse(text)).not.toThrow()
      expect(firstJsonError(text)).toBeUndefined()
    }
  })

  it('points at the first character JSON.parse rejects', () => {
    const cases: Array<[string, number]> = [
      ['{"a": [1,]}', 9],
      ['{"a" 1}', 5],
      ['{"a": 1,}', 8],
      ['{"a": tru}', 6],
      ['{"a": 1} x', 9],
      ['{"a": "\\x"}', 8],
      ['{"a": 01}', 7],
      ['', 0],
      ['{', 1],
    ]
    for (const [text, offset] of cases) {
      expect(() => JSON.parse(text)).toThrow()
      expect([text, firstJsonError(text)]).toEqual([text, offset])
    }
  })
})
