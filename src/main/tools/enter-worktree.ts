import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const input = z.strictObject({
  name: z
    .string()
    .optional()
    .describe('Optional name for a new worktree. Each "/"-separated segment may contain only letters, digits, dots, underscores, and dashes; max 64 chars total. A random name is generated if not provided. Mutually exclusive with `path`.'),
  path: z
    .string()
    .optional()
    .describe('Path to an existing worktree to switch into instead of creating a new one. Must appear in `git worktree list` for the current repo — or, on first entry from the launch directory, for a repo nested inside it (multi-repo workspace). Mutually exclusive with `name`.'),
})

/**
 * EnterWorktree (Claude Code's name, schema and result words): moves the session into a new git
 * worktree (`.claude/worktrees/<name>`, branch `worktree-<name>`) or an existing one of this
 * repository that no other session holds. From then on Bash and relative paths work there, and a
 * resumed session goes back into it. The work is the session's `ToolContext.worktree`.
 */
export const enterWorktreeTool = defineTool({
  name: 'EnterWorktree',
  label: 'Enter worktree',
  description:
    'Creates an isolated git worktree (under .claude/worktrees/, on a new branch worktree-<name>) and switches the session into it, or switches into an existing worktree of this repository with `path`. Use it when the user asks to work in a worktree, or to keep changes apart from the main checkout. Use ExitWorktree to leave it.',
  input,
  isDestructive: () => false,
  summarize: (args) => (args.path ? `Enter ${args.path}` : `New worktree${args.name ? ` ${args.name}` : ''}`),
  validate: async (args) => (args.name !== undefined && args.path !== undefined ? '`name` and `path` are mutually exclusive: pass one of them.' : undefined),
  async execute(args, ctx) {
    if (!ctx.worktree) return errorResult('EnterWorktree is not available here: only the main agent of a session can move into a worktree.')
    return ctx.worktree.enter({ ...(args.name !== undefined && { name: args.name }), ...(args.path !== undefined && { path: args.path }) })
  },
})
