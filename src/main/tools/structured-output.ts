import { z } from 'zod'
import { defineTool } from './define-tool'

/** Claude Code's name for its final-output tool (its source calls it the synthetic output tool). */
export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput'

/** What the tool answers, in Claude Code's words. */
export const STRUCTURED_OUTPUT_RESULT = 'Structured output provided successfully'

/**
 * StructuredOutput (Claude Code's name, description and schema: any object): the agent's final
 * response as data. The call ends the turn (`endsTurn`: no request follows it), and its input is
 * the run's `structured_output` in `sous -p`'s JSON result. The coordinator has it among its own
 * tools, so a directing agent can hand back a result a program reads.
 */
export const structuredOutputTool = defineTool({
  name: STRUCTURED_OUTPUT_TOOL,
  label: 'Final output',
  description:
    'Use this tool to return your final response in the requested structured format. You MUST call this tool exactly once at the end of your response to provide the structured output.',
  input: z.looseObject({}),
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => {
    const keys = Object.keys(args)
    return keys.length <= 3 ? keys.join(', ') : `${keys.length} fields: ${keys.slice(0, 3).join(', ')}…`
  },
  async execute(args) {
    return { content: STRUCTURED_OUTPUT_RESULT, details: { structured_output: args }, endsTurn: true }
  },
})
