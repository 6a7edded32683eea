/**
 * Line and column (1-based) for JSON errors. Node's JSON.parse reports a character position
 * ("... in JSON at position 42"); schema errors carry a key path we look up in the text.
 */
export interface TextPosition {
  line: number
  column: number
}

/** Converts a character offset to a 1-based line/column. */
export function positionAt(text: string, offset: number): TextPosition {
  const clamped = Math.max(0, Math.min(offset, text.length))
  let line = 1
  let lineStart = 0
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: clamped - lineStart + 1 }
}

/**
 * Where a JSON.parse error happened. V8 reports a position for some errors only ("Unexpected token
 * ']', "…" is not valid JSON" has none), so the text is scanned for the first error instead; the
 * message is the fallback.
 */
export function jsonErrorPosition(text: string, message: string): TextPosition {
  const scanned = firstJsonError(text)
  if (scanned !== undefined) return positionAt(text, scanned)
  const m = /at position (\d+)/.exec(message)
  if (m) return positionAt(text, Number(m[1]))
  const lc = /line (\d+) column (\d+)/.exec(message)
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) }
  return positionAt(text, text.length)
}

/** Offset of the first syntax error of a JSON text, or undefined when it parses. Strict JSON, no comments. */
export function firstJsonError(text: string): number | undefined {
  let i = 0
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++
  }
  const fail = (): never => {
    throw i
  }
  const str = (): void => {
    i++
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i)
      if (c < 0x20) fail()
      if (text[i] === '\\') {
        const e = text[i + 1] ?? ''
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6
        else if ('"\\/bfnrt'.includes(e) && e !== '') i += 2
        else {
          i++
          fail()
        }
      } else i++
    }
    if (i >= text.length) fail()
    i++
  }
  const value = (depth: number): void => {
    if (depth > 1000) fail()
    ws()
    const c = text[i]
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']'
      i++
      ws()
      if (text[i] === close) {
        i++
        return
      }
      for (;;) {
        if (c === '{') {
          ws()
          if (text[i] !== '"') fail()
          str()
          ws()
          if (text[i] !== ':') fail()
          i++
        }
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          ws()
          // A trailing comma: the error is at the closing bracket.
          if (text[i] === close) fail()
          continue
        }
        if (text[i] === close) {
          i++
          return
        }
        fail()
      }
    }
    if (c === '"') return str()
    const lit = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 400))
    if (!lit) fail()
    i += (lit as RegExpExecArray)[0].length
  }
  try {
    value(0)
    ws()
    return i < text.length ? i : undefined
  } catch (at) {
    if (typeof at === 'number') return Math.min(at, text.length)
    return undefined
  }
}

/** Best effort: the position of the deepest object key of `path` found in the text. */
export function keyPathPosition(text: string, path: ReadonlyArray<PropertyKey>): TextPosition {
  let from = 0
  for (const key of path) {
    if (typeof key !== 'string') continue
    const at = text.indexOf(JSON.stringify(key), from)
    if (at === -1) break
    from = at
  }
  return positionAt(text, from)
}
