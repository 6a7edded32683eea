import type { z } from 'zod'
import type { ImageBlock, TextBlock } from '../services/model/types'

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
  | { kind: 'command'; command: string; description?: string }
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
}

/** Any tool, whatever its input type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>
