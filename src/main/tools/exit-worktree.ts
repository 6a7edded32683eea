import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const input = z.strictObject({
  action: z.enum(['keep', 'remove']).describe('"keep" leaves the worktree and branch on disk; "remove" deletes the worktree and, unless a hook made it or git refuses, its branch.'),
  discard_changes: z
    .boolean()
    .optional()
    .describe('Required true when action is "remove" and the worktree has uncommitted files or unmerged commits. The tool will refuse and list them otherwise. It also removes the worktree under any task still running there, so set it only after the user has confirmed.'),
})

/**
 * ExitWorktree (Claude Code's name, schema and result words): leaves the worktree EnterWorktree
 * made in this session, back to where the session started; `remove` deletes it and its branch,
 * refusing while it holds uncommitted files or unmerged commits unless `discard_changes: true`.
 */
export const exitWorktreeTool = defineTool({
  name: 'ExitWorktree',
  label: 'Exit worktree',
  description:
    'Exits a worktree session created by EnterWorktree and restores the original working directory. action "keep" leaves the worktree and its branch on disk; "remove" deletes them. discard_changes (optional, default false): only meaningful with `action: "remove"`. If the worktree has uncommitted files or commits not on the original branch, the tool will REFUSE to remove it unless this is set to `true`. If the tool returns an error listing changes, confirm with the user before re-invoking with `discard_changes: true`.',
  input,
  isDestructive: (args) => args.action === 'remove',
  // Its own check: throwing work away is worth a question even where a mode would let the call
  // through; every other call has nothing special about it and passes through to the general rules.
  checkPermissions: (args) =>
    args.action === 'remove' && args.discard_changes === true
      ? { behavior: 'ask', reason: 'removing the worktree with discard_changes deletes its uncommitted files and unmerged commits' }
      : { behavior: 'passthrough' },
  summarize: (args) => (args.action === 'remove' ? 'Leave and remove the worktree' : 'Leave the worktree'),
  async execute(args, ctx) {
    if (!ctx.worktree) return errorResult('ExitWorktree cannot be called from a subagent with a cwd override (isolation: "worktree" or explicit cwd) — it would mutate the parent session\'s process-wide working directory. This agent is already isolated; use Bash with `cd` for directory changes within it.')
    return ctx.worktree.exit({ action: args.action, ...(args.discard_changes !== undefined && { discard_changes: args.discard_changes }) })
  },
})
