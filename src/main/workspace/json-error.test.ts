import { describe, expect, it } from 'vitest'
import { jsonErrorOffset } from './json-error'

describe('jsonErrorOffset', () => {
  it('accepts what JSON.parse accepts', () => {
    for (const text of ['{}', ' [1, -2.5e3, "a\\n\\u00e9", true, false, null, {"k": []}] ', '"x"', '0']) {
      expect(() => JSON.parse(text)).not.toThrow()
      expect(jsonErrorOffset(text)).toBeUndefined()
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
      expect([text, jsonErrorOffset(text)]).toEqual([text, offset])
    }
  })
})
