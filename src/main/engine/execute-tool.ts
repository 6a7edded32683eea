import type { AnyTool, ToolContext, ToolResult } from '../tools/types'

/**
 * Runs a call whose permission was granted: schema check (the input may have been replaced by a
 * hook or the user), the tool's own check, then `execute`. A throw becomes an error result.
 */
export async function executeTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = tool.inputSchema.safeParse(input)
  if (!parsed.success) {
    return { content: `InputValidationError: ${tool.name}: ${parsed.error.issues[0]?.message ?? 'invalid input'}`, isError: true }
  }
  try {
    const problem = await tool.validate?.(parsed.data, ctx)
    if (problem) return { content: problem, isError: true }
    return await tool.execute(parsed.data, ctx)
  } catch (error) {
    return { content: `Error: ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true }
  }
}
