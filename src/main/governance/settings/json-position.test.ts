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
