/**
 * Whether a sed script can only print: GNU sed's `e` command and `s///e` run shell commands,
 * `w`, `W` and `s///w` write files, `r` and `R` read files no word names. This reads the script
 * as sed does (addresses, `!`, `{}` blocks, labels, `a`/`i`/`c` text, `s` and `y` with any
 * delimiter) and answers with the first thing it cannot vouch for, or undefined when the script
 * is safe. Anything it does not recognise is unsafe.
 */
export function unsafeSedScript(script: string): string | undefined {
  const reader = new ScriptReader(script)
  try {
    while (!reader.done()) {
      reader.skip(' \t\n;')
      if (reader.done()) break
      const problem = command(reader)
      if (problem) return problem
    }
    return undefined
  } catch (error) {
    return error instanceof SedSyntax ? error.message : 'the sed script could not be read'
  }
}

class SedSyntax extends Error {}

class ScriptReader {
  index = 0
  constructor(readonly text: string) {}
  done(): boolean {
    return this.index >= this.text.length
  }
  peek(): string {
    return this.text[this.index] ?? ''
  }
  next(): string {
    if (this.done()) throw new SedSyntax('the sed script ends too early')
    return this.text[this.index++] as string
  }
  skip(chars: string): void {
    while (!this.done() && chars.includes(this.peek())) this.index++
  }
  /** Up to the end of the line (or of the script). */
  restOfLine(): string {
    const end = this.text.indexOf('\n', this.index)
    const stop = end === -1 ? this.text.length : end
    const line = this.text.slice(this.index, stop)
    this.index = stop
    return line
  }
  /** Text up to an unescaped `delimiter` (which is consumed). */
  delimited(delimiter: string): string {
    let out = ''
    for (;;) {
      const ch = this.next()
      if (ch === '\\') {
        out += ch + this.next()
        continue
      }
      if (ch === delimiter) return out
      if (ch === '\n' && delimiter !== '\n') throw new SedSyntax('a sed s, y or address is not closed')
      out += ch
    }
  }
}

const SIMPLE = new Set(['p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'z', '=', 'F'])

function command(reader: ScriptReader): string | undefined {
  address(reader)
  reader.skip(' \t')
  if (reader.peek() === ',') {
    reader.next()
    reader.skip(' \t')
    address(reader)
  }
  reader.skip(' \t')
  while (reader.peek() === '!') {
    reader.next()
    reader.skip(' \t')
  }
  const name = reader.next()
  if (name === '{' || name === '}') return undefined
  if (name === '#') {
    reader.restOfLine()
    return undefined
  }
  if (SIMPLE.has(name)) return end(reader)
  switch (name) {
    case 'q':
    case 'Q':
    case 'l':
    case 'L':
      reader.skip(' \t')
      while (/[0-9]/.test(reader.peek())) reader.next()
      return end(reader)
    case ':':
    case 'b':
    case 't':
    case 'T':
    case 'v':
      label(reader)
      return undefined
    case 'a':
    case 'i':
    case 'c':
      appendedText(reader)
      return undefined
    case 's':
      return substitute(reader)
    case 'y': {
      const delimiter = reader.next()
      reader.delimited(delimiter)
      reader.delimited(delimiter)
      return end(reader)
    }
    case 'e':
      return 'sed e runs a shell command'
    case 'w':
    case 'W':
      return `sed ${name} writes a file`
    case 'r':
    case 'R':
      return `sed ${name} reads a file the command does not name`
    default:
      return `sed command ${JSON.stringify(name)} is not known to be read-only`
  }
}

function address(reader: ScriptReader): void {
  const ch = reader.peek()
  if (/[0-9]/.test(ch)) {
    while (/[0-9~]/.test(reader.peek())) reader.next()
    return
  }
  if (ch === '$' || ch === '+' || ch === '~') {
    reader.next()
    while (/[0-9]/.test(reader.peek())) reader.next()
    return
  }
  if (ch === '/' || ch === '\\') {
    reader.next()
    const delimiter = ch === '\\' ? reader.next() : '/'
    regex(reader, delimiter)
    while (reader.peek() === 'I' || reader.peek() === 'M') reader.next()
  }
}

/**
 * A regular expression up to `delimiter`. GNU sed does not end it at a delimiter inside a bracket
 * expression (`s/[/]/x/`); rather than model that, a bracket left open where the plain scan ends
 * is refused, so both readings always split the script at the same place.
 */
function regex(reader: ScriptReader, delimiter: string): void {
  if (!bracketsClosed(reader.delimited(delimiter))) throw new SedSyntax('a sed regular expression has a bracket that holds its delimiter')
}

function bracketsClosed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++
      continue
    }
    if (text[i] !== '[') continue
    i++
    if (text[i] === '^') i++
    if (text[i] === ']') i++
    for (;;) {
      if (i >= text.length) return false
      if (text[i] === '[' && ':.='.includes(text[i + 1] ?? '')) {
        const close = text.indexOf(`${text[i + 1]}]`, i + 2)
        if (close === -1) return false
        i = close + 2
        continue
      }
      if (text[i] === ']') break
      i++
    }
  }
  return true
}

/** After a command: only spaces, then `;`, `}`, a newline, a comment or the end. */
function end(reader: ScriptReader): string | undefined {
  reader.skip(' \t')
  if (reader.done()) return undefined
  const ch = reader.peek()
  if (ch === ';' || ch === '\n' || ch === '}' || ch === '#') return undefined
  return `unexpected ${JSON.stringify(ch)} in the sed script`
}

function label(reader: ScriptReader): void {
  reader.skip(' \t')
  while (!reader.done() && reader.peek() !== ';' && reader.peek() !== '\n') reader.next()
}

/** `a text`, `a\` + lines; a line ending in a backslash continues the text. */
function appendedText(reader: ScriptReader): void {
  for (;;) {
    const line = reader.restOfLine()
    if (!line.endsWith('\\') || reader.done()) return
    reader.next()
  }
}

function substitute(reader: ScriptReader): string | undefined {
  const delimiter = reader.next()
  if (delimiter === '\n' || delimiter === '\\') throw new SedSyntax('a sed s command has no delimiter')
  regex(reader, delimiter)
  reader.delimited(delimiter)
  while (!reader.done()) {
    const flag = reader.peek()
    if (/[gpiImM0-9]/.test(flag)) {
      reader.next()
      continue
    }
    if (flag === 'e') return 'sed s///e runs the result as a shell command'
    if (flag === 'w') return 'sed s///w writes a file'
    break
  }
  return end(reader)
}
