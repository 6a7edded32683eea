import type { Node } from 'web-tree-sitter'

/**
 * Evaluating contexts: places where bash treats the *text of a value* as code. Arithmetic
 * (`(( ))`, `$(( ))`, `$[ ]`, `for (( ))`, `-eq`… inside `[[ ]]`, array subscripts, substring
 * offsets) evaluates a name's value as an expression, and an expression may hold `a[$(cmd)]`,
 * whose subscript runs `cmd`; `${!x}`, `[[ -v x ]]` and `[ -v x ]` use a value as a name (with such
 * a subscript); `${x@P}` expands a value as a prompt (command substitutions included).
 *
 * The rule is deliberately simple, so that no setter can be missed: bash sets values with no
 * assignment statement at all (`$_` after every command, `${x:=…}`, `BASH_REMATCH`, loop
 * variables, `REPLY`, `OPTARG`, `PWD` after `cd`…) and the environment brings more. So we do not
 * track who set what. An evaluating context is fine only when its text is arithmetic over
 * literals — numbers, operators and the integer-only specials `$? $# $$ $!` — and a name context
 * only when it names a variable literally; any other reference, quote or expansion there is a
 * problem (the command asks, in every mode). Indirect and prompt expansions always are.
 *
 * One more implicit assignment is itself a sink: a `for`/`select` loop variable. Loops over
 * `RANDOM`, `SECONDS`, `OPTIND`… evaluate each word as arithmetic on assignment, and a loop over
 * `PATH`, `IFS` or anything a later program reads changes what runs; so loop variables must be
 * lower-case names bash and common programs do not read.
 */

/** Why the node is an evaluating context that can see a value it should not, or undefined. */
export function evaluatingProblem(node: Node): string | undefined {
  switch (node.type) {
    case 'arithmetic_expansion':
      return arithmeticProblem(stripArithmetic(node.text), node.text)
    case 'compound_statement':
      // tree-sitter reads the `(( … ))` command as a compound statement opened by `((`.
      return node.child(0)?.type === '((' ? arithmeticProblem(stripArithmetic(node.text), node.text) : undefined
    case 'c_style_for_statement':
      return cStyleForProblem(node)
    case 'subscript':
      return subscriptProblem(subscriptIndex(node.text), node.text)
    case 'expansion':
      return expansionProblem(node.text)
    case 'test_command':
      return testProblem(node)
    case 'for_statement':
      return loopVariableProblem(node)
    case 'heredoc_redirect':
      return heredocProblem(node)
    case 'word':
      // An expansion tree-sitter left inside a plain word: we cannot see what it is.
      return /(^|[^\\])\$(\{|\(\(|\[)/.test(node.text) ? `an expansion the analysis cannot read (${node.text})` : undefined
    case '$':
      // `$"…"`: a translated string; the translation (from a catalog the environment picks) is expanded again.
      return node.nextSibling?.type === 'string' ? 'a $"…" translated string is expanded again after translation' : undefined
  }
  return undefined
}

/**
 * Arithmetic over literals: whitespace, numbers (`10`, `0x1f`, `2#101`), operators, the
 * specials bash keeps as plain integers (`$?`, `"$?"`, `${#}`) and lengths (`${#x}`, `${#a[@]}`:
 * always digits). Identifiers (a bare name is a variable whose value is
 * evaluated again), `$name`, `${…}`, quotes, brackets and substitutions are not.
 */
const ARITHMETIC_TOKEN = /\s+|"?\$[?#$!]"?|\$\{(?:[?#$!]|#[A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\])?)\}|\d+#[0-9A-Za-z@_]+|0[xX][0-9A-Fa-f]+|\d+|[-+*/%<>=!&|^~?:,()]/y

/** True when `text` is arithmetic over literals only (`;` separates the clauses of `for (( ))`). */
export function isLiteralArithmetic(text: string, allowSemicolons = false): boolean {
  let at = 0
  while (at < text.length) {
    if (allowSemicolons && text[at] === ';') {
      at++
      continue
    }
    ARITHMETIC_TOKEN.lastIndex = at
    const match = ARITHMETIC_TOKEN.exec(text)
    if (!match) return false
    at += match[0].length
  }
  return true
}

function arithmeticProblem(inner: string | undefined, whole: string): string | undefined {
  if (inner !== undefined && isLiteralArithmetic(inner)) return undefined
  return `arithmetic ${shorten(whole)} evaluates a value as an expression (its subscripts run command substitutions)`
}

/** The expression inside `$(( … ))`, `$[ … ]` or `(( … ))`; undefined when the delimiters are not where they should be. */
function stripArithmetic(text: string): string | undefined {
  for (const [open, close] of [['$((', '))'], ['$[', ']'], ['((', '))']] as const) {
    if (text.startsWith(open) && text.endsWith(close) && text.length >= open.length + close.length) return text.slice(open.length, text.length - close.length)
  }
  return undefined
}

function cStyleForProblem(node: Node): string | undefined {
  const open = node.text.indexOf('((')
  const close = node.text.indexOf('))', open)
  if (open !== -1 && close !== -1 && isLiteralArithmetic(node.text.slice(open + 2, close), true)) return undefined
  return 'for (( … )) evaluates its clauses as arithmetic over variables'
}

/** The index of `name[index]` (outermost brackets). */
function subscriptIndex(text: string): string | undefined {
  const open = text.indexOf('[')
  const close = text.lastIndexOf(']')
  return open === -1 || close < open ? undefined : text.slice(open + 1, close)
}

/** An indexed array's subscript is arithmetic: fine when it is `@`, `*` or literal arithmetic. */
function subscriptProblem(index: string | undefined, whole: string): string | undefined {
  if (index !== undefined && (index === '@' || index === '*' || (index.trim() !== '' && isLiteralArithmetic(index)))) return undefined
  return `array subscript in ${shorten(whole)} is evaluated as arithmetic over a value`
}

/** `${name…}`, `${#name…}`, `${10}`, `${@}`: the parameter part of an expansion. */
const PARAMETER = /^(?:#(?=[A-Za-z_0-9@*#?$!-]))?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/

/** Problems of one `${…}` (raw text): indirection, `@P`, a subscript or a substring offset over a value. */
export function expansionProblem(text: string): string | undefined {
  if (!text.startsWith('${') || !text.endsWith('}')) return `an expansion the analysis cannot read (${shorten(text)})`
  const inner = text.slice(2, -1)
  if (inner.startsWith('!') && inner !== '!') return `indirect expansion ${shorten(text)} uses a value as a variable name (its subscript runs command substitutions)`
  if (/@P$/.test(inner)) return `prompt expansion ${shorten(text)} runs the command substitutions in a value`
  const parameter = PARAMETER.exec(inner)
  if (!parameter) return `an expansion the analysis cannot read (${shorten(text)})`
  let rest = inner.slice(parameter[0].length)
  if (rest.startsWith('[')) {
    const close = matching(rest, 0, '[', ']')
    if (close === -1) return `an expansion the analysis cannot read (${shorten(text)})`
    const problem = subscriptProblem(rest.slice(1, close), text)
    if (problem) return problem
    rest = rest.slice(close + 1)
  }
  // `${x:offset:length}` (a `:` not followed by `-=?+`): both are arithmetic.
  if (/^:(?![-=?+])/.test(rest) && !isLiteralArithmetic(rest.slice(1))) return `substring offset in ${shorten(text)} is evaluated as arithmetic over a value`
  return undefined
}

/** Index of the bracket closing the one at `from`, or -1. */
function matching(text: string, from: number, open: string, close: string): number {
  let depth = 0
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === open) depth++
    else if (text[i] === close && --depth === 0) return i
  }
  return -1
}

const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
const NAME_TESTS = new Set(['-v', '-R'])
/** A variable named literally, with at most a literal subscript. */
const LITERAL_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[(\d+|@|\*)\])?$/

/**
 * `[[ a -eq b ]]` evaluates both sides as arithmetic (`[ a -eq b ]` does not: test wants plain
 * integers); `-v`/`-R` in either use the operand as a name. Operators tree-sitter did not read as
 * operators (counted in the raw text) make the whole test a problem.
 */
function testProblem(node: Node): string | undefined {
  const double = node.child(0)?.type === '[['
  let seen = 0
  const stack: Node[] = [node]
  while (stack.length > 0) {
    const current = stack.pop() as Node
    if (current.type === 'test_operator' && (NAME_TESTS.has(current.text) || (double && ARITHMETIC_TESTS.has(current.text)))) {
      seen++
      const problem = operatorProblem(current)
      if (problem) return problem
    }
    // Nested commands are judged on their own.
    if (current.type === 'command_substitution' || current.type === 'process_substitution') continue
    for (let i = 0; i < current.childCount; i++) {
      const child = current.child(i)
      if (child) stack.push(child)
    }
  }
  const operators = double ? /(^|[\s(!])-(eq|ne|lt|le|gt|ge|v|R)(?=[\s)]|$)/g : /(^|[\s(!])-(v|R)(?=[\s)]|$)/g
  if ((node.text.match(operators)?.length ?? 0) > seen) return `a test the analysis cannot read (${shorten(node.text)})`
  return undefined
}

function operatorProblem(operator: Node): string | undefined {
  const parent = operator.parent
  if (NAME_TESTS.has(operator.text)) {
    const operand = operator.nextSibling
    if (parent?.type === 'unary_expression' && operand && LITERAL_NAME.test(operand.text)) return undefined
    return `${operator.text} in ${shorten(parent?.text ?? operator.text)} uses a value as a variable name (its subscript runs command substitutions)`
  }
  const operands = parent?.type === 'binary_expression' ? [parent.child(0), parent.child(2)] : []
  if (operands.length === 2 && operands.every((operand) => operand && operand.id !== operator.id && isLiteralArithmetic(operand.text))) return undefined
  return `${operator.text} in ${shorten(parent?.text ?? operator.text)} evaluates its operands as arithmetic over values`
}

/** Builtins that take variable names (a subscript in one is arithmetic) or evaluate their words. */
const NAME_BUILTINS = new Set(['read', 'printf', 'declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'mapfile', 'readarray', 'getopts', 'wait'])
const DECLARATIONS = new Set(['declare', 'typeset', 'local'])

/**
 * Simple commands that evaluate words (none is read-only, but an allow rule must not cover code
 * hidden in them either): `test -v`/`[ -v ]`, `let`, a subscript in a name given to a builtin, and
 * the values of `declare -i`. `words` are the command's words after wrappers (literal: dequoted).
 */
export function commandEvaluationProblem(words: ReadonlyArray<{ value: string; literal: boolean }>): string | undefined {
  const name = words[0]?.value ?? ''
  const rest = words.slice(1)
  if (name === 'test' || name === '[') {
    const at = rest.findIndex((word, i) => NAME_TESTS.has(word.value) && !(rest[i + 1]?.literal && LITERAL_NAME.test(rest[i + 1]?.value ?? '')))
    return at === -1 ? undefined : `${name} ${rest[at]?.value} uses a value as a variable name (its subscript runs command substitutions)`
  }
  if (name === 'let') return rest.every((word) => word.literal && isLiteralArithmetic(word.value)) ? undefined : 'let evaluates its words as arithmetic'
  if (!NAME_BUILTINS.has(name)) return undefined
  const integer = DECLARATIONS.has(name) && rest.some((word) => /^[-+][a-zA-Z]*i/.test(word.value))
  // printf's other words are a format and its arguments; only the -v name is a name.
  const names = name === 'printf' ? rest.filter((_word, i) => rest[i - 1]?.value === '-v') : rest
  for (const word of names) {
    const equals = word.value.indexOf('=')
    const target = equals === -1 ? word.value : word.value.slice(0, equals)
    // A name only known at run time may hold a subscript: refused when a bracket shows at all.
    const subscripted = word.literal ? /^[A-Za-z_][A-Za-z0-9_]*\[/.test(target) : target.includes('[')
    if (subscripted && subscriptProblem(word.literal ? subscriptIndex(target) : undefined, target)) return `${name} evaluates the subscript in ${shorten(target)}`
    if (integer && equals !== -1 && !(word.literal && isLiteralArithmetic(word.value.slice(equals + 1)))) return `${name} -i evaluates ${shorten(word.value)} as arithmetic`
  }
  return undefined
}

/** Lower-case names bash or common programs read. */
const SENSITIVE_LOWER = new Set(['auto_resume', 'histchars'])

function loopVariableProblem(node: Node): string | undefined {
  const name = node.childForFieldName('variable')?.text ?? node.namedChild(0)?.text ?? ''
  if (/^[a-z][a-z0-9_]*$/.test(name) && !SENSITIVE_LOWER.has(name) && !name.endsWith('_proxy')) return undefined
  return `the loop sets ${name || 'a variable'}, which bash or other programs read (or evaluate as arithmetic); loop variables must be lower-case names`
}

/**
 * An unquoted here-document body is expanded: its arithmetic and `${…}` are judged like any
 * other. tree-sitter reads such bodies loosely, so the raw text is scanned as well.
 */
function heredocProblem(node: Node): string | undefined {
  const start = node.children.find((child) => child?.type === 'heredoc_start')
  if (!start || /['"\\]/.test(start.text)) return undefined
  const body = node.children.find((child) => child?.type === 'heredoc_body')
  return body ? expandedTextProblem(body.text) : undefined
}

/** Scans text that bash expands like a double-quoted string for evaluating contexts. */
export function expandedTextProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++
      continue
    }
    if (text[i] === '`') return 'command substitution `...`'
    if (text[i] !== '$') continue
    const next = text.slice(i + 1)
    if (next.startsWith('((') || next.startsWith('[')) {
      const open = next.startsWith('[') ? '[' : '('
      const close = matching(text, i + 1, open, open === '[' ? ']' : ')')
      const whole = close === -1 ? text.slice(i) : text.slice(i, close + 1)
      const problem = arithmeticProblem(close === -1 ? undefined : stripArithmetic(whole), whole)
      if (problem) return problem
    } else if (next.startsWith('(')) return 'command substitution $(...)'
    else if (next.startsWith('{')) {
      const close = matching(text, i + 1, '{', '}')
      const problem = expansionProblem(close === -1 ? text.slice(i) : text.slice(i, close + 1))
      if (problem) return problem
    }
  }
  return undefined
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat
}
