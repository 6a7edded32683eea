import type { Node } from 'web-tree-sitter'

/**
 * Literal evaluation of shell words. tree-sitter gives words raw (`"r"m`, `r\m`, `$'\x72m'`), so we
 * dequote them ourselves and refuse anything whose value depends on the shell at run time
 * (expansions, substitutions, brace expansion): such a word is `literal: false` and keeps its raw text.
 */
export interface WordValue {
  /** The dequoted value when literal, else the raw source text. */
  value: string
  literal: boolean
  /** Contains an unquoted glob character (`*`, `?`, `[`). */
  glob: boolean
  /** Starts with an unquoted `~` (tilde expansion). */
  tilde: boolean
  /**
   * The value with every quoted or escaped character replaced by NUL (empty when not literal):
   * tells unquoted glob and tilde characters from quoted ones in any part of the word.
   */
  shape: string
}

/** The value of a word-like node (word, string, raw_string, concatenation, number, ansi_c_string). */
export function evalWord(node: Node): WordValue {
  let value = ''
  // `shape` mirrors the value with every quoted or escaped character replaced by NUL, so unquoted
  // glob and brace characters can be found without confusing them with quoted ones.
  let shape = ''
  let literal = true
  const stack: Node[] = [node]
  while (stack.length > 0) {
    const part = stack.pop() as Node
    switch (part.type) {
      case 'concatenation':
        for (let i = part.childCount - 1; i >= 0; i--) {
          const child = part.child(i)
          if (child) stack.push(child)
        }
        break
      case 'word':
      case 'number': {
        const [text, mirror] = unquotedWord(part.text)
        value += text
        shape += mirror
        break
      }
      case 'raw_string': {
        const text = part.text.slice(1, -1)
        value += text
        shape += '\0'.repeat(text.length)
        break
      }
      case 'string': {
        for (let i = 0; i < part.childCount; i++) {
          const child = part.child(i)
          if (!child || child.type === '"') continue
          if (child.type !== 'string_content') {
            literal = false
            continue
          }
          const text = doubleQuoted(child.text)
          value += text
          shape += '\0'.repeat(text.length)
        }
        break
      }
      case 'ansi_c_string': {
        const text = ansiC(part.text.slice(2, -1))
        if (text === undefined) literal = false
        else {
          value += text
          shape += '\0'.repeat(text.length)
        }
        break
      }
      default:
        literal = false
    }
  }
  if (!literal) return dynamicWord(node.text)
  if (/\{[^}\0]*(,|\.\.)[^}\0]*\}/.test(shape)) return dynamicWord(node.text)
  return { value, literal: true, glob: /[*?[]/.test(shape), tilde: shape.startsWith('~'), shape }
}

/** A word whose value only the shell knows at run time. */
export function dynamicWord(text: string): WordValue {
  return { value: text, literal: false, glob: false, tilde: false, shape: '' }
}

/** A literal word with nothing quoted (names the analysis makes up itself). */
export function plainWord(text: string): WordValue {
  return { value: text, literal: true, glob: /[*?[]/.test(text), tilde: text.startsWith('~'), shape: text }
}

/** Removes backslash escapes from unquoted text; returns [value, shape]. */
function unquotedWord(text: string): [string, string] {
  let value = ''
  let shape = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (ch === '\\' && i + 1 < text.length) {
      const next = text[i + 1] as string
      i++
      if (next === '\n') continue
      value += next
      shape += '\0'
      continue
    }
    value += ch
    shape += ch
  }
  return [value, shape]
}

/** Inside double quotes a backslash escapes only `$`, backquote, `"`, `\` and newline. */
function doubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_match, escaped: string) => (escaped === '\n' ? '' : escaped))
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
}

/** Decodes the body of `$'...'`; undefined for escapes we do not model (then the word is not literal). */
function ansiC(body: string): string | undefined {
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string
    if (ch !== '\\') {
      out += ch
      continue
    }
    const next = body[i + 1]
    if (next === undefined) return undefined
    const simple = SIMPLE_ESCAPES[next]
    if (simple !== undefined) {
      out += simple
      i++
      continue
    }
    let match: RegExpExecArray | null
    if ((match = /^x([0-9a-fA-F]{1,2})/.exec(body.slice(i + 1)))) {
      out += String.fromCharCode(parseInt(match[1] as string, 16))
      i += match[0].length
    } else if ((match = /^([0-7]{1,3})/.exec(body.slice(i + 1)))) {
      out += String.fromCharCode(parseInt(match[1] as string, 8))
      i += match[0].length
    } else if ((match = /^u([0-9a-fA-F]{1,4})/.exec(body.slice(i + 1))) || (match = /^U([0-9a-fA-F]{1,8})/.exec(body.slice(i + 1)))) {
      const codePoint = parseInt(match[1] as string, 16)
      if (codePoint > 0x10ffff) return undefined
      out += String.fromCodePoint(codePoint)
      i += match[0].length
    } else return undefined
  }
  return out
}
