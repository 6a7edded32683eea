import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import description from './compact.prompt'

const input = z.strictObject({
  instructions: z.string().max(4_000).optional().describe('What the summary should keep in detail (optional)'),
})

/**
 * Compact: the model asks for the conversation to be summarized before its next request (the
 * session's context management does it, with PreCompact/PostCompact hooks, trigger "auto").
 * Bookkeeping: it changes nothing outside Sous's own records, so it needs no approval.
 */
export const compactTool = defineTool({
  name: 'Compact',
  label: 'Compact the conversation',
  description,
  input,
  isDestructive: () => false,
  isBookkeeping: () => true,
  summarize: (args) => (args.instructions ? `Compact: ${args.instructions}` : 'Compact the conversation'),
  async execute(args, ctx) {
    if (!ctx.requestCompaction) return errorResult('Compaction is not available here.')
    ctx.requestCompaction(args.instructions)
    return { content: 'The conversation will be summarized before your next request. Go on with the work as usual.', details: { instructions: args.instructions ?? '' } }
  },
})
