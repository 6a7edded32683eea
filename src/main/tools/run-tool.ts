import type { z } from 'zod'
import { errorResult } from './define-tool'
import type { AnyTool, ToolContext, ToolResult } from './types'

/** What the model is told when the user stops a call. */
export const ABORTED_MESSAGE = 'The user aborted this tool call.'

/**
 * Runs one tool call: schema, then the tool's own check, then `execute`.
 *
 * **Contract:** never throws and never rejects. Bad input comes back as an instructive
 * `InputValidationError` naming the fields; a throw becomes an error result with its message
 * (no stack); an abort resolves at once with {@link ABORTED_MESSAGE} even if the tool is slow to
 * notice — except for a tool marked `settlesOnAbort`: its own result is awaited. Permissions and hooks are the caller's business and run before this.
 */
export async function runToolCall(tool: AnyTool, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.signal.aborted) return errorResult(ABORTED_MESSAGE)
  const parsed = tool.inputSchema.safeParse(rawInput ?? {})
  if (!parsed.success) return errorResult(formatInputError(tool.name, parsed.error.issues))
  const input: unknown = parsed.data
  try {
    const run = async (): Promise<ToolResult> => {
      const problem = await tool.validate?.(input, ctx)
      if (problem) return errorResult(problem)
      return await tool.execute(input, ctx)
    }
    return await (tool.settlesOnAbort === true ? run() : untilAborted(ctx.signal, run))
  } catch (error) {
    return errorResult(`Error: ${messageOf(error)}`)
  }
}

/** Validates input without running anything (the engine shows previews for valid input only). */
export function parseToolInput<I>(tool: { name: string; inputSchema: z.ZodType<I> }, rawInput: unknown): { ok: true; input: I } | { ok: false; message: string } {
  const parsed = tool.inputSchema.safeParse(rawInput ?? {})
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, message: formatInputError(tool.name, parsed.error.issues) }
}

/** `InputValidationError: Read failed due to the following issues: ...`, one line per field. */
export function formatInputError(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => `- ${describeIssue(issue)}`)
  const noun = issues.length === 1 ? 'issue' : 'issues'
  return `InputValidationError: ${toolName} failed due to the following ${noun}:\n${lines.join('\n')}`
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.')
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `\`${key}\``).join(', ')
    return `An unexpected parameter ${keys} was provided`
  }
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    return `The required parameter \`${field}\` is missing`
  }
  if (issue.code === 'invalid_type') {
    return `The parameter \`${field}\` type is expected as \`${issue.expected}\` but provided as \`${receivedType(issue)}\``
  }
  return field ? `\`${field}\`: ${issue.message}` : issue.message
}

function receivedType(issue: z.core.$ZodIssue): string {
  const match = /received (\w+)/.exec(issue.message)
  return match?.[1] ?? 'another type'
}

async function untilAborted(signal: AbortSignal, run: () => Promise<ToolResult>): Promise<ToolResult> {
  let onAbort: (() => void) | undefined
  const aborted = new Promise<ToolResult>((resolve) => {
    onAbort = () => resolve(errorResult(ABORTED_MESSAGE))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([run(), aborted])
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}
