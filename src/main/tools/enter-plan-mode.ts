import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import description from './enter-plan-mode.prompt'

const input = z.strictObject({})

/** EnterPlanMode: asks the user to switch to plan mode (only read-only tools run there). */
export const enterPlanModeTool = defineTool({
  name: 'EnterPlanMode',
  label: 'Enter plan mode',
  description,
  input,
  isDestructive: () => false,
  // It only narrows what may run; the user's consent is asked by the tool itself.
  isBookkeeping: () => true,
  summarize: () => 'Plan first',
  async execute(_args, ctx) {
    if (!ctx.planMode) return errorResult('Plan mode is not available in this session.')
    if (ctx.planMode.mode === 'plan') return { content: 'You are already in plan mode: explore, then present your plan with ExitPlanMode.', details: { mode: 'plan' } }
    const answer = await ctx.planMode.enter(ctx.toolUseId, ctx.signal)
    if (!answer.entered) return errorResult(`Plan mode was not entered: ${answer.reason}`, { mode: ctx.planMode.mode })
    return {
      content:
        'Entered plan mode. Explore the codebase with read-only tools and design an approach; do not change anything yet (other calls are refused). When the plan is ready, present it with ExitPlanMode.',
      details: { mode: 'plan' },
    }
  },
})
