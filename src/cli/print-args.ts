import { canonicalMode, PERMISSION_MODE_SPELLINGS, type PermissionModeId } from '../shared/permission-modes'
import { EFFORT_LEVELS, type EffortLevel } from '../main/services/model/capabilities'
import { takeWorktreeFlag } from './print-worktree'

// Not `import … from 'node:util'`: Node builds that ESM facade by reading every export, lazy
// ones too, which costs a cold `sous -p` ~10–20 ms (bench/startup.bench.ts).
const { parseArgs } = process.getBuiltinModule('node:util')
const { readFileSync } = process.getBuiltinModule('node:fs')
const { resolve } = process.getBuiltinModule('node:path')

/** How headless mode prints its outcome. */
export type OutputFormat = 'text' | 'json' | 'stream-json' | 'sous-events'
/** Permission modes by Sous's internal names (`--permission-mode manual` is `default`). */
export type PermissionMode = PermissionModeId

/** The parsed command line of `sous -p`. */
export interface PrintOptions {
  prompt: string
  cwd?: string
  outputFormat: OutputFormat
  permissionMode: PermissionMode
  /** Whether `--permission-mode` was given (else the settings' `defaultMode` decides). */
  permissionModeGiven: boolean
  model?: string
  /** Model requests allowed; none given means no limit (as in Claude Code's print mode). */
  maxTurns?: number
  resume?: string
  /** `--fork-session`: continue the resumed session in a new one (the original stays as it was). */
  forkSession: boolean
  /** `--at <checkpoint-id>`: the fork starts from that checkpoint's conversation. */
  at?: string
  continue: boolean
  verbose: boolean
  appendSystemPrompt?: string
  /** Permission rules from the command line (the `cli` settings source), e.g. `Bash(npm test:*)`. */
  allowedTools: string[]
  disallowedTools: string[]
  /** `--settings`: an absolute settings file path, or JSON text (the `flag` settings source). */
  settings?: string
  /** `--mcp-config`: files (as given) or JSON texts. */
  mcpConfigs: string[]
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strictMcpConfig: boolean
  /** `--coordinator`: the main agent directs workers; the run ends once they all reported. */
  coordinator: boolean
  /** `--input-format stream-json`: stdin is Claude Code's JSON lines of user messages, one turn each. */
  inputFormat: 'text' | 'stream-json'
  /** `--include-partial-messages`: stream-json also prints the stream's events. */
  includePartialMessages: boolean
  /** `--max-budget-usd` (Claude Code's flag): the run's spending cap in dollars. */
  maxBudgetUsd?: number
  /** `--max-tokens-budget`: the run's cap in tokens (input, cache reads and writes, output). */
  maxTokensBudget?: number
  /** `--effort`: `output_config.effort` for models that take it. */
  effort?: EffortLevel
  /** `--max-background-wait`: seconds the run waits for background agents and commands after its turn (0: none). */
  maxBackgroundWait: number
  /** `-w/--worktree [name]`: the session runs in a new git worktree (Claude Code's flag). */
  worktree?: { name?: string }
}

/** `--max-background-wait`'s default: ten minutes, the longest a foreground Bash command may run. */
export const DEFAULT_MAX_BACKGROUND_WAIT_S = 600

const FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json', 'sous-events']

/** Usage text for `sous -p --help`. */
export const PRINT_USAGE = `Usage: sous -p [options] [prompt]

Runs one agent turn without a UI and prints the result. The prompt may also come on stdin.

Options:
  --cwd <dir>                     project folder (default: current directory)
  -w, --worktree [name]           run in a new git worktree (.claude/worktrees/<name>,
                                  branch worktree-<name>; a random name when none is given)
  --output-format <format>        text (default) | json | stream-json (Claude Code's messages)
                                  | sous-events (Sous's own events, one per line)
  --input-format <format>         text (default) | stream-json (user messages as JSON lines on stdin,
                                  one turn each)
  --include-partial-messages      with stream-json: also the model's stream events
  --permission-mode <mode>        manual (default) | acceptEdits | plan | auto | bypassPermissions | dontAsk
                                  (auto asks as manual does until its classifier exists)
  --allowedTools <rules...>       allow rules for this run, e.g. "Bash(npm test:*)" Edit
  --disallowedTools <rules...>    deny rules for this run
  --settings <file-or-json>       extra settings (a file, or JSON text) above the folder's and yours
  --mcp-config <configs...>       MCP servers from JSON files or JSON strings
  --strict-mcp-config             use only the --mcp-config servers
  --model <name>                  model id (default: ANTHROPIC_MODEL or the built-in default)
  --max-turns <n>                 limit on model requests (default: no limit)
  --max-budget-usd <amount>       stop before spending more than this many dollars
                                  (exit 1, terminal_reason "budget_exceeded")
  --max-tokens-budget <n>         stop before using more than this many tokens
  --effort <level>                low | medium | high | xhigh | max (models that take it)
  --max-background-wait <seconds> how long the run stays up for background agents and commands
                                  after the agent's turn (default ${DEFAULT_MAX_BACKGROUND_WAIT_S}; 0: stop them at once);
                                  past it they are stopped and the run fails (exit 1)
  -r, --resume <session-id>       continue a stored session
  -c, --continue                  continue the latest session of this folder
  --fork-session                  with --resume: continue in a new session (the original is kept)
  --at <checkpoint-id>            with --fork-session: start from that checkpoint's conversation
  --append-system-prompt <text>   extra instructions for this run
  --coordinator                   coordinator mode: the agent directs workers and the run ends
                                  once every worker has reported and the agent answered
  --verbose                       print tool activity on stderr (text format), and that
                                  the folder's own settings are obeyed (trusted) headless
  -h, --help                      show this help`

/**
 * Parses `sous -p` arguments (with or without the `-p` itself). Returns an error string for bad
 * input; `help` when help was asked for. The prompt is the positional text; stdin is merged later.
 */
export function parsePrintArgs(argv: string[]): { ok: true; options: Omit<PrintOptions, 'prompt'> & { prompt: string } } | { ok: false; error: string } | { ok: 'help' } {
  let parsed
  const flag = takeWorktreeFlag(argv)
  try {
    parsed = parseArgs({
      args: flag.argv,
      allowPositionals: true,
      strict: true,
      options: {
        print: { type: 'boolean', short: 'p' },
        cwd: { type: 'string' },
        'output-format': { type: 'string' },
        'permission-mode': { type: 'string' },
        model: { type: 'string' },
        'max-turns': { type: 'string' },
        resume: { type: 'string', short: 'r' },
        continue: { type: 'boolean', short: 'c' },
        'fork-session': { type: 'boolean' },
        at: { type: 'string' },
        verbose: { type: 'boolean' },
        'append-system-prompt': { type: 'string' },
        allowedTools: { type: 'string', multiple: true },
        disallowedTools: { type: 'string', multiple: true },
        settings: { type: 'string' },
        'mcp-config': { type: 'string', multiple: true },
        'strict-mcp-config': { type: 'boolean' },
        coordinator: { type: 'boolean' },
        'input-format': { type: 'string' },
        'include-partial-messages': { type: 'boolean' },
        'max-budget-usd': { type: 'string' },
        'max-tokens-budget': { type: 'string' },
        effort: { type: 'string' },
        'max-background-wait': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  const values = parsed.values
  if (values.help) return { ok: 'help' }
  const outputFormat = (values['output-format'] ?? 'text') as OutputFormat
  if (!FORMATS.includes(outputFormat)) return { ok: false, error: `--output-format must be one of ${FORMATS.join(', ')}` }
  const permissionMode = canonicalMode(values['permission-mode'] ?? 'default')
  if (!permissionMode) return { ok: false, error: `--permission-mode must be one of ${PERMISSION_MODE_SPELLINGS.join(', ')}` }
  let maxTurns: number | undefined
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns'])
    if (!Number.isInteger(maxTurns) || maxTurns < 1) return { ok: false, error: '--max-turns must be a positive integer' }
  }
  const maxBudgetUsd = values['max-budget-usd'] === undefined ? undefined : Number(values['max-budget-usd'])
  if (maxBudgetUsd !== undefined && !(Number.isFinite(maxBudgetUsd) && maxBudgetUsd > 0)) return { ok: false, error: '--max-budget-usd must be a positive number' }
  const maxTokensBudget = values['max-tokens-budget'] === undefined ? undefined : Number(values['max-tokens-budget'])
  if (maxTokensBudget !== undefined && !(Number.isInteger(maxTokensBudget) && maxTokensBudget > 0)) return { ok: false, error: '--max-tokens-budget must be a positive integer' }
  const effort = values.effort as EffortLevel | undefined
  if (effort !== undefined && !EFFORT_LEVELS.includes(effort)) return { ok: false, error: `--effort must be one of ${EFFORT_LEVELS.join(', ')}` }
  const maxBackgroundWait = values['max-background-wait'] === undefined ? DEFAULT_MAX_BACKGROUND_WAIT_S : Number(values['max-background-wait'])
  if (!(Number.isFinite(maxBackgroundWait) && maxBackgroundWait >= 0 && maxBackgroundWait <= 86_400)) return { ok: false, error: '--max-background-wait must be a number of seconds from 0 to 86400' }
  if (values.resume !== undefined && values.continue) return { ok: false, error: '--resume and --continue cannot be combined' }
  if (values['fork-session'] && values.resume === undefined) return { ok: false, error: '--fork-session needs --resume <session-id>' }
  if (values.at !== undefined && !values['fork-session']) return { ok: false, error: '--at needs --fork-session (to rewind the session itself, use sous rewind)' }
  if (flag.worktree && (values.resume !== undefined || values.continue)) return { ok: false, error: '--worktree starts a new session: it cannot be combined with --resume or --continue (a resumed session reopens in its worktree)' }
  const inputFormat = values['input-format'] ?? 'text'
  if (inputFormat !== 'text' && inputFormat !== 'stream-json') return { ok: false, error: '--input-format must be text or stream-json' }
  if (inputFormat === 'stream-json' && outputFormat !== 'stream-json') return { ok: false, error: '--input-format stream-json needs --output-format stream-json' }
  if (values['include-partial-messages'] && outputFormat !== 'stream-json') return { ok: false, error: '--include-partial-messages needs --output-format stream-json' }
  if (values['strict-mcp-config'] && !values['mcp-config']?.length) return { ok: false, error: '--strict-mcp-config needs --mcp-config' }
  const settings = values.settings === undefined ? undefined : settingsFlag(values.settings)
  if (settings && !settings.ok) return settings
  const options: Omit<PrintOptions, 'prompt'> & { prompt: string } = {
    prompt: parsed.positionals.join(' '),
    outputFormat,
    permissionMode,
    permissionModeGiven: values['permission-mode'] !== undefined,
    ...(maxTurns !== undefined && { maxTurns }),
    continue: values.continue ?? false,
    forkSession: values['fork-session'] ?? false,
    verbose: values.verbose ?? false,
    allowedTools: splitRules(values.allowedTools),
    disallowedTools: splitRules(values.disallowedTools),
    mcpConfigs: values['mcp-config'] ?? [],
    strictMcpConfig: values['strict-mcp-config'] ?? false,
    coordinator: values.coordinator ?? false,
    inputFormat,
    includePartialMessages: values['include-partial-messages'] ?? false,
    maxBackgroundWait,
  }
  if (maxBudgetUsd !== undefined) options.maxBudgetUsd = maxBudgetUsd
  if (maxTokensBudget !== undefined) options.maxTokensBudget = maxTokensBudget
  if (effort !== undefined) options.effort = effort
  if (values.cwd !== undefined) options.cwd = values.cwd
  if (settings) options.settings = settings.value
  if (flag.worktree) options.worktree = flag.worktree
  if (values.model !== undefined) options.model = values.model
  if (values.resume !== undefined) options.resume = values.resume
  if (values.at !== undefined) options.at = values.at
  if (values['append-system-prompt'] !== undefined) options.appendSystemPrompt = values['append-system-prompt']
  return { ok: true, options }
}

/** Rules may come as repeated flags or comma/space separated, as Claude Code accepts them. */
export function splitRules(values: string[] | undefined): string[] {
  const rules: string[] = []
  for (const value of values ?? []) {
    // Split on commas and spaces that are not inside parentheses: `Bash(git diff:*) Edit`.
    let depth = 0
    let current = ''
    for (const char of value) {
      if (char === '(') depth++
      if (char === ')') depth = Math.max(0, depth - 1)
      if (depth === 0 && (char === ',' || char === ' ')) {
        if (current.trim()) rules.push(current.trim())
        current = ''
      } else current += char
    }
    if (current.trim()) rules.push(current.trim())
  }
  return rules
}

/**
 * `--settings`: JSON text (it must parse) or a file, resolved against where `sous` started (it must
 * be readable). Checked here so a typo stops the run with a clear error instead of running without
 * the rules the user meant; a file that breaks later fails closed in the settings loader.
 */
export function settingsFlag(value: string): { ok: true; value: string } | { ok: false; error: string } {
  if (value.trimStart().startsWith('{')) {
    try {
      JSON.parse(value)
    } catch (error) {
      return { ok: false, error: `--settings: the JSON text does not parse: ${error instanceof Error ? error.message : String(error)}` }
    }
    return { ok: true, value }
  }
  const file = resolve(value)
  try {
    readFileSync(file, 'utf8')
  } catch (error) {
    return { ok: false, error: `--settings: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` }
  }
  return { ok: true, value: file }
}
