import { WorktreeName } from '../shared/ipc/worktree-info'

/** `-w/--worktree [name]` taken out of the arguments, the rest left for `parseArgs`. */
export interface WorktreeFlag {
  argv: string[]
  /** Present when the flag was given; `name` when it was followed by one. */
  worktree?: { name?: string }
}

/**
 * Takes `-w/--worktree [name]` out of `sous -p`'s arguments (Claude Code's flag, whose name is
 * optional — which `parseArgs` cannot say). As commander does for an optional value, the next
 * argument is the name when it could be one; a prompt (with spaces, or anything that is not a
 * worktree name's shape) stays the prompt, so `sous -p -w "fix the test"` runs in a random-named
 * worktree. `--worktree=name` always names it. Contract: pure; never throws.
 */
export function takeWorktreeFlag(argv: readonly string[]): WorktreeFlag {
  const rest: string[] = []
  let worktree: WorktreeFlag['worktree']
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      rest.push(...argv.slice(i))
      break
    }
    if (arg.startsWith('--worktree=')) {
      worktree = { name: arg.slice('--worktree='.length) }
      continue
    }
    if (arg !== '-w' && arg !== '--worktree') {
      rest.push(arg)
      continue
    }
    const next = argv[i + 1]
    if (next !== undefined && !next.startsWith('-') && WorktreeName.safeParse(next).success && argv.length > i + 2) {
      worktree = { name: next }
      i++
    } else worktree = {}
  }
  return { argv: rest, ...(worktree && { worktree }) }
}
