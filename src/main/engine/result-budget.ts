import type { ToolResultBlock } from '../services/model/types'
import { applyResultBudget } from '../tools/result-budget'
import type { AnyTool } from '../tools/types'

/**
 * Applies the tool layer's result budget to one message of tool_results: results over their
 * tool's limit, and the largest ones while the message is over budget, are persisted under
 * `resultsDir` (the session's `tool-results/<sessionId>/`) and replaced by a preview. Order and
 * pairing are kept.
 */
export async function budgetResults(
  blocks: ToolResultBlock[],
  toolOf: (toolUseId: string) => AnyTool | undefined,
  resultsDir: string,
): Promise<ToolResultBlock[]> {
  const budgeted = await applyResultBudget(
    blocks.map((block) => ({
      toolUseId: block.tool_use_id,
      maxResultChars: toolOf(block.tool_use_id)?.maxResultChars,
      result: { content: block.content, isError: block.is_error === true },
    })),
    resultsDir,
  )
  return blocks.map((block, index) => {
    const result = budgeted[index]!
    return result.content === block.content ? block : { ...block, content: result.content }
  })
}
