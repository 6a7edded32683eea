import type { z } from 'zod'
import type { PtyProcess } from '../pty/types'
import type { McpServers } from '../services/mcp'
import type { ImageBlock, TextBlock } from '../services/model/types'
import type { FileStateCache } from './file-state'
import type { ShellState } from './shell/shell-state'

/**
 * The contract between the engine and every tool. The engine knows no tool by name; governance
 * decides before `execute` runs. Tools get their capabilities through {@link ToolContext} and never
 * import the engine.
 */

/** What a tool hands back: `content` for the model, `details` for the UI. */
export interface ToolResult {
  content: string | Array<TextBlock | ImageBlock>
  details?: unknown
  isError?: boolean
}

/** What the approval UI shows before a call runs. */
export type ToolPreview =
  | { kind: 'diff'; filePath: string; before: string; after: string }
  | {
      kind: 'command'
      command: string
      description?: string
      /** The simple commands it runs, in order (substitutions and `bash -c` included). */
      commands?: string[]
      /** Files it reads or writes, as far as the syntax shows. */
      paths?: Array<{ path: string; write: boolean; inside: boolean }>
      /** Some write lands outside the project (or where, cannot be known). */
      writesOutside?: boolean
      /** Whether it would run inside the sandbox. */
      sandboxed?: boolean
      /** Why it would not (sandbox unavailable, or dangerouslyDisableSandbox). */
      sandboxNote?: string
      /** Why it cannot be auto-approved (substitution, eval, syntax error…). */
      problems?: string[]
    }
  | { kind: 'text'; text: string }

/** Capabilities and identity a call runs with. Extend additively. */
export interface ToolContext {
  /** Working directory for relative paths (the Bash tool keeps its own, persisted, cwd). */
  cwd: string
  /** The project folder. */
  projectRoot: string
  /** `$SOUS_HOME/projects/<slug>`: transcripts, tool results, memory. */
  projectDataDir: string
  sessionId: string
  agentId: string
  toolUseId: string
  /** Aborted when the user stops the turn or the session ends. */
  signal: AbortSignal
  /** Streams a line of progress to the UI while the tool runs. */
  progress(text: string): void
  /**
   * What this session has read (path → mtime, size, hash). Edit and Write refuse to change an
   * existing file that is missing here or changed on disk since; without a cache they refuse
   * every existing file (fail closed). One per session: see `createToolSession`.
   */
  fileState?: FileStateCache
  /** The Bash tool's per-session state: persisted cwd and background shells. */
  shell?: ShellState
  /**
   * Called when the Bash tool starts a command on a PTY, so the desktop can show it live in the
   * "Agent" terminal (and the user can type into it when a command waits for input).
   */
  onPtySpawn?(proc: PtyProcess, command: string): void
  /** Asks a small, fast model (WebFetch uses it to answer a prompt over a page). */
  askModel?(system: string, user: string, signal: AbortSignal): Promise<string>
  /** The session's MCP servers (ListMcpResourcesTool, ReadMcpResourceTool, WaitForMcpServers). */
  mcp?: McpServers
  /** Loads skills for the Skill tool. */
  skills?: SkillLoader
}

/**
 * What the Skill tool asks the session for: the skill's rendered body, with its folder made readable
 * and its `allowed-tools` granted for the turn; or why it cannot be loaded.
 */
export interface SkillLoader {
  load(name: string, args: string, signal: AbortSignal): Promise<{ ok: true; name: string; file: string; text: string; alreadyLoaded: boolean } | { ok: false; error: string }>
}

/** A tool as the engine sees it, after `defineTool`. */
export interface Tool<Input = unknown> {
  /** Model-facing name, as in Claude Code (`Read`, `Edit`, `Bash`). */
  readonly name: string
  /** Short human label for the UI. */
  readonly label: string
  /** Model-facing description (long text lives in a `*.prompt.md` beside the tool). */
  readonly description: string
  readonly inputSchema: z.ZodType<Input>
  /** JSON Schema for the API, derived once from `inputSchema`. */
  readonly jsonSchema: Record<string, unknown>
  isReadOnly(input: Input): boolean
  isDestructive(input: Input): boolean
  isConcurrencySafe(input: Input): boolean
  /** One line for the tool card ("Read src/app.ts"). */
  summarize(input: Input): string
  /** What approval shows (a diff, a parsed command). */
  preview?(input: Input, ctx: ToolContext): Promise<ToolPreview | undefined>
  /** Semantic checks after the schema; a string is an instructive error for the model. */
  validate?(input: Input, ctx: ToolContext): Promise<string | undefined>
  execute(input: Input, ctx: ToolContext): Promise<ToolResult>
  /**
   * Results longer than this are persisted to disk and replaced by a preview (see
   * result-budget.ts). `Infinity` exempts the tool (Read: persisting a read would loop).
   */
  readonly maxResultChars?: number
}

/** Any tool, whatever its input type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>
