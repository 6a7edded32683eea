import type { Node } from 'web-tree-sitter'
import { bashParserIfReady } from './parser'
import { dynamicWord, evalWord, plainWord } from './words'
import type { WordValue } from './words'
import type { AnalyzeOptions, BashAnalysis, BashCommand, BashRedirect } from './types'
import { analyzePaths } from './path-facts'
import { INTERPRETERS, SHELLS, unwrapCommand } from './commands'
import { commandEvaluationProblem, evaluatingProblem } from './eval-sinks'

/** Commands longer than this always ask (Claude Code's limit). */
export const MAX_COMMAND_LENGTH = 10_000
const MAX_SHELL_DEPTH = 3

/**
 * Synchronous analysis; the parser must be ready (a bug otherwise). Outside `bash/`, reach it
 * through the seam (`analyzer.ts`: `analyzeBash`, `bashAnalyzerIfReady`), which loads this module
 * with the parser.
 * Contract: never throws for any input string; anything it cannot vouch for lands in `problems`.
 */
export function analyzeBashSync(command: string, opts: AnalyzeOptions): BashAnalysis {
  const problems: string[] = []
  const commands = collect(command, problems, false, 0)
  const facts = analyzePaths(commands, opts)
  problems.push(...facts.problems)
  if (command.length > MAX_COMMAND_LENGTH) problems.unshift(`command is longer than ${MAX_COMMAND_LENGTH} characters`)
  const unique = [...new Set(problems)]
  return {
    commands,
    verdicts: facts.verdicts,
    paths: facts.paths,
    writesOutside: facts.writesOutside,
    readOnly: unique.length === 0 && facts.readOnly,
    problems: unique,
    critical: facts.critical,
  }
}

interface Frame {
  node: Node
  nested: boolean
}

/** Walks the syntax tree with an explicit stack (deep nesting must not overflow) and collects simple commands. */
function collect(source: string, problems: string[], nestedBase: boolean, depth: number): BashCommand[] {
  const parser = bashParserIfReady()
  if (!parser) throw new Error('the parser must be ready before analyzeBashSync() (loadBashAnalyzer)')
  const tree = parser.parse(source)
  if (!tree) {
    problems.push('the command could not be parsed')
    return []
  }
  const commands: BashCommand[] = []
  try {
    if (tree.rootNode.hasError) problems.push('the command has a syntax error')
    const bodyRedirects = new Map<number, Node[]>()
    const stack: Frame[] = [{ node: tree.rootNode, nested: nestedBase }]
    while (stack.length > 0) {
      const { node, nested } = stack.pop() as Frame
      let childNested = nested
      switch (node.type) {
        case 'ERROR':
          problems.push('the command has a syntax error')
          break
        case 'command':
          commands.push(buildCommand(node, nested, bodyRedirects.get(node.id) ?? []))
          nestedScripts(commands, problems, depth)
          break
        case 'redirected_statement': {
          const body = node.childForFieldName('body')
          const redirects = node.childrenForFieldName('redirect')
          if (body?.type === 'command') bodyRedirects.set(body.id, redirects)
          else commands.push(orphanRedirects(node, redirects, nested))
          break
        }
        case 'command_substitution':
          problems.push('command substitution $(...) or `...`')
          childNested = true
          break
        case 'process_substitution':
          problems.push('process substitution <(...) or >(...)')
          childNested = true
          break
        case 'function_definition':
          problems.push('defines a shell function')
          break
        case 'variable_assignment': {
          const parentType = node.parent?.type
          if (parentType !== 'command' && parentType !== 'declaration_command')
            problems.push(`sets shell variable ${node.childForFieldName('name')?.text ?? ''} for later commands`)
          break
        }
        case 'declaration_command':
        case 'unset_command':
          commands.push(declaration(node, nested))
          break
      }
      if (node.isMissing) problems.push('the command is incomplete')
      // Wherever it sits (a test, a loop, a here-document, a substitution): see eval-sinks.ts.
      const evaluating = evaluatingProblem(node)
      if (evaluating) problems.push(evaluating)
      for (let i = node.childCount - 1; i >= 0; i--) {
        const child = node.child(i)
        if (child) stack.push({ node: child, nested: childNested })
      }
    }
  } finally {
    tree.delete()
  }
  for (const command of commands) commandProblems(command, problems)
  return commands
}

function buildCommand(node: Node, nested: boolean, extra: Node[]): BashCommand {
  const words: WordValue[] = []
  const assignments: BashCommand['assignments'] = []
  const redirectNodes: Node[] = []
  let dynamic = false
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (!child) continue
    switch (child.type) {
      case 'variable_assignment': {
        const valueNode = child.childForFieldName('value')
        const value = valueNode ? evalWord(valueNode) : plainWord('')
        assignments.push({ name: child.childForFieldName('name')?.text ?? '', value: value.value, literal: value.literal })
        break
      }
      case 'command_name': {
        const inner = child.namedChild(0) ?? child
        words.push(evalWord(inner))
        break
      }
      case 'file_redirect':
      case 'heredoc_redirect':
      case 'herestring_redirect':
        redirectNodes.push(child)
        break
      default:
        if (child.isNamed && child.type !== 'comment') words.push(evalWord(child))
        else if (child.type === '$') dynamic = true
    }
  }
  redirectNodes.push(...extra)
  const redirects = redirectNodes.flatMap(parseRedirect)
  if (words.some((word) => !word.literal)) dynamic = true
  const stdinFed = redirects.some((redirect) => redirect.op === '<<' || redirect.op === '<<-' || redirect.op === '<<<') || pipedInto(node)
  return { argv: words.map((word) => word.value), words, redirects, assignments, text: node.text, dynamic, nested, stdinFed }
}

/** Redirects of a compound statement (`{ ...; } > out`): recorded as a command without argv. */
function orphanRedirects(node: Node, redirects: Node[], nested: boolean): BashCommand {
  return { argv: [], words: [], redirects: redirects.flatMap(parseRedirect), assignments: [], text: node.text, dynamic: false, nested, stdinFed: false }
}

function declaration(node: Node, nested: boolean): BashCommand {
  const words: WordValue[] = []
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (!child) continue
    if (i === 0) words.push(plainWord(child.text))
    else if (child.type === 'variable_assignment') words.push(dynamicWord(child.text))
    else if (child.isNamed) words.push(evalWord(child))
  }
  return { argv: words.map((word) => word.value), words, redirects: [], assignments: [], text: node.text, dynamic: true, nested, stdinFed: false }
}

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>'])

function parseRedirect(node: Node): BashRedirect[] {
  if (node.type === 'heredoc_redirect') {
    const inner = node.namedChildren.filter((child): child is Node => child !== null && child.type === 'file_redirect')
    return [{ op: '<<', target: '', literal: true, write: false, word: plainWord('') }, ...inner.flatMap(parseRedirect)]
  }
  if (node.type === 'herestring_redirect') return [{ op: '<<<', target: '', literal: true, write: false, word: plainWord('') }]
  let op = ''
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)
    if (child && !child.isNamed) {
      op = child.type
      break
    }
  }
  const destination = node.childForFieldName('destination')
  const word = destination ? evalWord(destination) : dynamicWord('')
  const duplicate = (op === '>&' || op === '<&') && /^(\d+|-)$/.test(word.value)
  if (duplicate) return []
  const write = WRITE_OPS.has(op) || op === '>&'
  return [{ op, target: word.value, literal: word.literal, write, word }]
}

/** True when a `|` or `|&` precedes this command's statement in its pipeline. */
function pipedInto(node: Node): boolean {
  let stmt: Node = node
  if (stmt.parent?.type === 'redirected_statement') stmt = stmt.parent
  const pipe = stmt.parent
  if (pipe?.type !== 'pipeline') return false
  for (let i = 0; i < pipe.childCount; i++) {
    const child = pipe.child(i)
    if (!child) continue
    if (child.id === stmt.id) return false
    if (child.type === '|' || child.type === '|&') return true
  }
  return false
}

/**
 * Command lines a command runs as code: `bash -c '<literal>'` (behind any wrappers), and what a
 * wrapper hands to a shell or splits itself (`env -S`, `watch`, `flock -c`, `script -c`). Their
 * commands join the list (nested), so every one must pass; one only known at run time is a problem.
 */
function nestedScripts(commands: BashCommand[], problems: string[], depth: number): void {
  const command = commands[commands.length - 1]
  if (!command) return
  const scripts: string[] = []
  const unwrapped = unwrapCommand(command.argv)
  for (const layer of unwrapped.layers) {
    if (layer.scriptUnknown) problems.push(`${layer.name} runs a command line only known at run time`)
    if (layer.script !== undefined) scripts.push(layer.script)
  }
  const argv = command.argv.slice(unwrapped.start)
  const offset = unwrapped.start
  if (SHELLS.has(argv[0] ?? '')) {
    const flag = argv.findIndex((word, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(word))
    if (flag !== -1) {
      const script = command.words[offset + flag + 1]
      if (!script || !script.literal) problems.push(`${argv[0]} -c with a script only known at run time`)
      else scripts.push(script.value)
    }
  }
  if (command.words.slice(0, offset).some((word) => !word.literal) && scripts.length > 0) problems.push('a wrapper\'s command line is only known at run time')
  for (const script of scripts) {
    if (depth >= MAX_SHELL_DEPTH) {
      problems.push('shell -c nested too deeply')
      return
    }
    commands.push(...collect(script, problems, true, depth + 1))
  }
}

function commandProblems(command: BashCommand, problems: string[]): void {
  const { start } = unwrapCommand(command.argv)
  for (const index of new Set([0, start])) {
    const word = command.words[index]
    if (word && !word.literal) problems.push(`command name is only known at run time (${word.value})`)
  }
  const argv = command.argv.slice(start)
  const name = argv[0] ?? ''
  if (name === 'eval') problems.push('eval runs a string as code')
  const evaluates = commandEvaluationProblem(command.words.slice(start))
  if (evaluates) problems.push(evaluates)
  if (INTERPRETERS.has(name) && command.stdinFed) {
    const positional = argv.slice(1).filter((word) => !word.startsWith('-') || word === '-')
    if (positional.length === 0 || positional.includes('-')) problems.push(`${name} reads code from stdin (pipe, heredoc or herestring)`)
  }
}

/**
 * For the Bash tool's `isReadOnly` / `isConcurrencySafe` (synchronous): true only when the parser
 * is loaded and the command is in the read-only set with a clean parse. False otherwise (fail closed).
 */
export function isReadOnlyBash(command: string, opts: AnalyzeOptions): boolean {
  if (!bashParserIfReady()) return false
  return analyzeBashSync(command, opts).readOnly
}
