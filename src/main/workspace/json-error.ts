/**
 * Where a JSON text first goes wrong, as a character offset. Node 20's `JSON.parse` messages
 * often carry no position ("Unexpected token ']', ...": ["Read",]..." is not valid JSON"), and
 * a settings editor must point at the broken line, so this small strict scanner finds it.
 * Returns `undefined` for valid JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++
  }
  const fail = (): never => {
    throw new Offset(i)
  }
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length
    else fail()
  }
  const string = (): void => {
    if (text[i] !== '"') fail()
    i++
    while (i < text.length) {
      const c = text[i]!
      if (c === '"') return void i++
      if (c === '\\') {
        const next = text[i + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return void (i++, fail())
          i += 6
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2
        else return void (i++, fail())
      } else if (c.charCodeAt(0) < 0x20) fail()
      else i++
    }
    fail()
  }
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i))
    if (!match) fail()
    i += match![0].length
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') return void i++
      for (;;) {
        ws()
        string()
        ws()
        if (text[i] !== ':') fail()
        i++
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === '}') return void i++
        else fail()
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') return void i++
      for (;;) {
        value()
        ws()
        if (text[i] === ',') i++
        else if (text[i] === ']') return void i++
        else fail()
      }
    }
    if (c === '"') return string()
    if (c === 't') return literal('true')
    if (c === 'f') return literal('false')
    if (c === 'n') return literal('null')
    number()
  }
  try {
    value()
    ws()
    if (i < text.length) fail()
    return undefined
  } catch (error) {
    if (error instanceof Offset) return error.offset
    throw error
  }
}

class Offset {
  constructor(readonly offset: number) {}
}
