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

/** Where a JSON.parse error happened, from its message (end of text when the message has no position). */
export function jsonErrorPosition(text: string, message: string): TextPosition {
  const m = /at position (\d+)/.exec(message)
  if (m) return positionAt(text, Number(m[1]))
  const lc = /line (\d+) column (\d+)/.exec(message)
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) }
  return positionAt(text, text.length)
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
