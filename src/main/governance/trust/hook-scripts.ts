import { createHash } from 'node:crypto'
import { accessSync, constants, lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, extname, isAbsolute, relative, resolve, sep } from 'node:path'
import { existsHere } from '../paths/real-path'

/**
 * The project's own files a hook command runs: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`,
 * `python3 tools/lint.py`, `./scripts/fmt.sh --fix`. Trusting a hook trusts what it runs, so
 * these are fingerprinted with the settings (a changed script asks again) and read-only inside the
 * sandbox (a sandboxed command cannot rewrite what a hook later runs outside it).
 *
 * The command is split into words as a shell would (quotes, escapes, operators), the project
 * folder variables are put in, and every word (or the part after `NAME=` / `--opt=`) that names a
 * file inside the project counts when it is something that runs: a script path or extension, an
 * executable, or the word after an interpreter (a marker or log the hook writes is data, not code). A word that names no file counts when
 * it looks like a script path (`./x`, `.claude/…`, the project variable, a script's extension): a
 * script that does not exist yet is what a command could create. Words only known when the hook
 * runs (other variables, substitutions, globs) cannot be followed; that is why the whole of
 * `.claude/hooks/` is protected too.
 */

/** The variables a hook gets for the project folder (Claude Code's and Sous's own). */
const PROJECT_VARIABLES = ['CLAUDE_PROJECT_DIR', 'SOUS_PROJECT_DIR']
/** Extensions that make a word a script path even before the file exists. */
const SCRIPT_EXTENSIONS = new Set(['.sh', '.bash', '.zsh', '.fish', '.py', '.js', '.mjs', '.cjs', '.ts', '.mts', '.rb', '.pl', '.php', '.ps1', '.lua', '.tcl'])
/** Programs whose next word is the script they run (`python3 tools/lint`, `bash scripts/check`). */
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'fish', 'python', 'python3', 'node', 'deno', 'bun', 'tsx', 'ruby', 'perl', 'php', 'lua', 'pwsh', 'source', '.'])
/** More files than this in one hook command are not followed (a command is not a file list). */
const MAX_SCRIPTS = 32
/** Scripts larger than this are fingerprinted by size and change time. */
const MAX_HASHED_BYTES = 8 * 1024 * 1024

/** A hook handler as settings hold it. */
export interface HookCommand {
  command?: unknown
  args?: unknown
}

/** The absolute paths of the project files `hook` runs (see the module comment). Never throws. */
export function hookScriptPaths(hook: HookCommand, projectRoot: string): string[] {
  const root = resolve(projectRoot)
  if (typeof hook.command !== 'string') return []
  const args = Array.isArray(hook.args) ? hook.args.filter((arg): arg is string => typeof arg === 'string') : []
  const words: Word[] = [...shellWords(hook.command, root), ...args.map((arg) => ({ text: withProjectDir(arg, root), literal: true, fromVariable: arg !== withProjectDir(arg, root) }))]
  const found = new Set<string>()
  words.forEach((word, index) => {
    if (!word.literal || found.size >= MAX_SCRIPTS) return
    const afterInterpreter = index > 0 && INTERPRETERS.has(basename(words[index - 1]!.text))
    candidates(word.text).forEach((candidate, position) => {
      const path = resolve(root, candidate)
      if (!isInside(path, root)) return
      // Whether a word counts must not change when the hook itself creates the file it names (a
      // marker, a log): an existing file counts as something that runs or configures what runs
      // (`NAME=file`, `--opt=file`), never as a plain argument.
      const script = position > 0 || looksLikeScript(candidate, word.fromVariable) || SCRIPT_EXTENSIONS.has(extname(candidate).toLowerCase())
      if (isFile(path) ? script || word.runs === true || afterInterpreter || isExecutable(path) : !existsHere(path) && looksLikeScript(candidate, word.fromVariable)) found.add(path)
    })
  })
  return [...found]
}

/** Every script the hooks of one settings object run, for the fingerprint and the sandbox. */
export function settingsHookScripts(settings: unknown, projectRoot: string): string[] {
  const hooks = objectOf(objectOf(settings).hooks)
  const out = new Set<string>()
  for (const matchers of Object.values(hooks)) {
    for (const entry of Array.isArray(matchers) ? matchers : []) {
      const handlers = objectOf(entry).hooks
      for (const handler of Array.isArray(handlers) ? handlers : []) for (const path of hookScriptPaths(objectOf(handler), projectRoot)) out.add(path)
    }
  }
  return [...out]
}

/**
 * What each script is now, for the fingerprint: `[path relative to the project, digest]`, sorted.
 * An absent script, a symlink's target and an unreadable file each have a digest of their own.
 */
export function scriptDigests(paths: readonly string[], projectRoot: string): Array<[string, string]> {
  const root = resolve(projectRoot)
  return [...new Set(paths)]
    .map((path): [string, string] => [relative(root, path).split(sep).join('/'), digestOf(path)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

function digestOf(path: string): string {
  try {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) return `link:${readlinkSync(path)}:${digestOf(realpathSync(path))}`
    if (!stat.isFile()) return `kind:${stat.mode & 0o170000}`
    if (stat.size > MAX_HASHED_BYTES) return `size:${stat.size}:${stat.mtimeMs}`
    return createHash('sha256').update(readFileSync(path)).digest('hex')
  } catch (error) {
    return `absent:${(error as NodeJS.ErrnoException).code ?? 'error'}`
  }
}

interface Word {
  text: string
  /** Nothing in it is only known when the hook runs. */
  literal: boolean
  /** It began with the project variable. */
  fromVariable: boolean
  /** It is the first word of a simple command: the program that runs. */
  runs?: boolean
}

/**
 * Splits a command line into words as bash would, well enough to find file names: quotes and
 * backslashes are honoured, operators end words, the project variables are put in (outside single
 * quotes), and a word with any other expansion is marked not literal.
 */
export function shellWords(command: string, projectRoot: string): Word[] {
  const words: Word[] = []
  let text = ''
  let literal = true
  let started = false
  let fromVariable = false
  let atCommand = true
  const end = (): void => {
    if (started) {
      words.push({ text, literal, fromVariable, runs: atCommand })
      atCommand = false
    }
    text = ''
    literal = true
    started = false
    fromVariable = false
  }
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string
    if (c === '\\') {
      text += command[i + 1] ?? ''
      started = true
      i++
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1)
      const stop = close === -1 ? command.length : close
      text += command.slice(i + 1, stop)
      started = true
      i = stop
    } else if (c === '"') {
      let j = i + 1
      while (j < command.length && command[j] !== '"') {
        if (command[j] === '\\' && j + 1 < command.length) {
          text += command[j + 1]
          j += 2
          continue
        }
        const variable = projectVariableAt(command, j)
        if (variable) {
          if (!started && text === '') fromVariable = true
          text += projectRoot
          j += variable
          continue
        }
        if (command[j] === '$' || command[j] === '`') literal = false
        text += command[j]
        j++
      }
      started = true
      i = j
    } else if (/\s/.test(c) || ';&|()<>'.includes(c)) {
      end()
      if (';&|('.includes(c)) atCommand = true
    } else {
      const variable = c === '$' ? projectVariableAt(command, i) : 0
      if (variable) {
        if (!started) fromVariable = true
        text += projectRoot
        i += variable - 1
      } else {
        if (c === '$' || c === '`' || '*?['.includes(c) || (c === '~' && !started)) literal = false
        text += c
      }
      started = true
    }
  }
  end()
  return words
}

/** The length of a project variable reference at `at` (`$CLAUDE_PROJECT_DIR`, `${SOUS_PROJECT_DIR}`), or 0. */
function projectVariableAt(command: string, at: number): number {
  if (command[at] !== '$') return 0
  for (const name of PROJECT_VARIABLES) {
    if (command.startsWith(`\${${name}}`, at)) return name.length + 3
    if (command.startsWith(`$${name}`, at) && !/[A-Za-z0-9_]/.test(command[at + name.length + 1] ?? '')) return name.length + 1
  }
  return 0
}

function withProjectDir(text: string, root: string): string {
  let out = text
  for (const name of PROJECT_VARIABLES) out = out.replaceAll(`\${${name}}`, root).replaceAll(`$${name}`, root)
  return out
}

/** The word, and its value after a leading `NAME=` or `--option=`. */
function candidates(word: string): string[] {
  const out = word === '' ? [] : [word]
  const assignment = /^(?:[A-Za-z_][A-Za-z0-9_]*|--?[A-Za-z0-9][\w-]*)=(.+)$/.exec(word)
  if (assignment?.[1]) out.push(assignment[1])
  return out
}

function looksLikeScript(word: string, fromVariable: boolean): boolean {
  return fromVariable || word.startsWith('./') || word.startsWith('.claude/') || (word.includes('/') && SCRIPT_EXTENSIONS.has(extname(word).toLowerCase()))
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function isFile(path: string): boolean {
  try {
    const stat = lstatSync(path)
    return stat.isFile() || stat.isSymbolicLink()
  } catch {
    return false
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
