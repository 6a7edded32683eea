import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './exit-plan-mode.prompt'
import type { PlanOutcome } from './types'

const input = z.strictObject({
  plan: z.string().describe('The plan you came up with, that you want to run by the user for approval. Supports markdown. The plan should be pretty concise.'),
})

/** ExitPlanMode: saves the plan, asks the user to approve it, and leaves plan mode on approval. */
export const exitPlanModeTool = defineTool({
  name: 'ExitPlanMode',
  label: 'Present plan',
  description,
  input,
  isDestructive: () => false,
  // It writes only the plan file in Claude Code's plans folder; the approval is asked by the tool itself.
  isBookkeeping: () => true,
  summarize: (args) => args.plan.split('\n').find((line) => line.trim() !== '')?.replace(/^#+\s*/, '').slice(0, 80) ?? 'Plan',
  validate: async (args, ctx) => {
    if (!ctx.planMode) return 'Plan mode is not available in this session.'
    if (ctx.planMode.mode !== 'plan') return 'You are not in plan mode. ExitPlanMode presents a plan made in plan mode; outside it, just go ahead (or ask the user in text).'
    if (args.plan.trim() === '') return 'The plan is empty: write it in the plan parameter.'
    return undefined
  },
  async execute(args, ctx) {
    const outcome = await ctx.planMode!.propose(args.plan, ctx.toolUseId, ctx.signal)
    const details = { outcome: outcome.outcome, ...('plan' in outcome ? { plan: outcome.plan } : { plan: args.plan }), ...('filePath' in outcome && outcome.filePath ? { filePath: outcome.filePath } : {}) }
    return { ...resultFor(outcome), details }
  },
})

function resultFor(outcome: PlanOutcome): { content: string; isError?: boolean } {
  const saved = (o: { filePath?: string; fileError?: string }): string => (o.filePath ? `The plan is saved at ${o.filePath}.` : o.fileError ? `Note: ${o.fileError}.` : '')
  switch (outcome.outcome) {
    case 'approved': {
      const mode = outcome.mode === 'acceptEdits' ? 'edits are accepted without asking' : outcome.mode === 'default' ? 'each edit is approved by the user' : `permission mode ${outcome.mode}`
      const edited = outcome.edited ? ' The user edited the plan before approving it: follow the approved version below, not your draft.' : ''
      const feedback = outcome.feedback ? ` Their note: ${outcome.feedback}` : ''
      return {
        content: `${outcome.approver ?? 'The user'} approved your plan and plan mode is over (${mode}).${feedback} You can start implementing now; if it has several steps, track them with TaskCreate.${edited} ${saved(outcome)}\n\n## Approved plan\n\n${outcome.plan}`,
      }
    }
    case 'keep_planning':
      return {
        content: `${outcome.approver ?? 'The user'} wants you to keep planning; plan mode stays on.${outcome.feedback ? ` Their feedback: ${outcome.feedback}` : ''}\nRevise the plan and present it again with ExitPlanMode. ${saved(outcome)}`,
        isError: true,
      }
    case 'unattended':
      return { content: `${saved(outcome)} This run is headless, so nobody can approve the plan here: stop now and end your turn; the user will review the plan.` }
    case 'aborted':
      return { content: outcome.message, isError: true }
  }
}
