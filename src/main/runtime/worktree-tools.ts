import type { WorktreeInfo } from '../../shared/ipc/worktrees'
import { errorResult } from '../tools/define-tool'
import type { ShellState } from '../tools/shell/shell-state'
import type { ToolResult, WorktreeControl } from '../tools/types'
import { isManagedWorktreeFolder } from '../worktrees/location'
import type { WorktreeService } from '../worktrees/service'

/** Claude Code's words when a removal would lose work. */
const CONFIRM = 'Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.'

/**
 * The main agent's EnterWorktree / ExitWorktree for one session. Entering moves the session's
 * working directory (Bash's cwd) into the worktree and records it as the session's `active`
 * worktree, so a resumed session goes back into it ({@link reenterWorktree}); the worktree is
 * under the project's `.claude/worktrees`, so the permission scope already covers it. Only
 * worktrees this session entered are left or removed here.
 */
export function createWorktreeControl(o: { service: WorktreeService; projectPath: string; sessionId: string; shell: ShellState }): WorktreeControl {
  const { service, projectPath, sessionId, shell } = o
  const current = () => service.activeFor(sessionId, projectPath)
  return {
    async enter(input) {
      try {
        const active = await current()
        if (active) return errorResult(`Already in a worktree session (${active.path}): use ExitWorktree first.`)
        if (input.path !== undefined) return await enterExisting(input.path)
        const { info, notes } = await service.create(projectPath, { ...(input.name && { name: input.name }), owner: 'entered', sessionId })
        await service.update({ ...info, active: true })
        shell.cwd = info.path
        const note = notes.length > 0 ? ` ${notes.join(' ')}` : ''
        return { content: `Created worktree at ${info.path} on branch ${info.branch}.${note} The session is now working in the worktree. Use ExitWorktree to leave mid-session, or exit the session to be prompted.`, details: { worktreePath: info.path, worktreeBranch: info.branch } }
      } catch (error) {
        return errorResult(error instanceof Error ? error.message : String(error))
      }
    },
    async exit(input) {
      try {
        const active = await current()
        if (!active || active.owner !== 'entered') return errorResult('No-op: there is no active EnterWorktree session to exit. This tool only operates on worktrees created by EnterWorktree in the current session — it will not touch worktrees created manually or in a previous session. No filesystem changes were made.')
        if (input.action === 'keep') {
          await service.update({ ...active, active: false })
          shell.cwd = projectPath
          return done('keep', active, `Exited worktree. Your work is preserved at ${active.path} on branch ${active.branch}. The session is back in ${projectPath}.`)
        }
        const loss = await service.loss(projectPath, active.path)
        const loses = loss.uncommitted.length > 0 || loss.commits.length > 0
        if (loses && input.discard_changes !== true) return errorResult(`Worktree has ${loss.summary}. Removing will discard this work permanently. ${CONFIRM}`)
        shell.cwd = projectPath
        const removed = await service.remove(projectPath, active.path, { owner: sessionId, force: input.discard_changes === true })
        if (!removed.removed) return errorResult(`Worktree has ${removed.loss.summary}. Removing will discard this work permanently. ${CONFIRM}`)
        const discarded = removed.discarded ? ` Discarded ${removed.discarded.summary}.` : ''
        return done('remove', active, `Exited and removed worktree at ${active.path}.${discarded} The session is back in ${projectPath}.`)
      } catch (error) {
        return errorResult(error instanceof Error ? error.message : String(error))
      }
    },
  }

  /** EnterWorktree `{path}`: a worktree of `.claude/worktrees` that no other session holds. */
  async function enterExisting(path: string): Promise<ToolResult> {
    const rows = await service.list(projectPath)
    const row = rows.find((item) => item.path === path)
    if (!row || !(await isManagedWorktreeFolder(row.repoRoot, path))) return errorResult(`${path} is not a worktree of this repository under .claude/worktrees (see git worktree list). Nothing was changed.`)
    const holder = row.sessionId && row.sessionId !== sessionId && row.state !== 'orphan' ? row.sessionId : undefined
    if (holder || (row.locked !== undefined && !row.locked.includes(sessionId) && row.state !== 'orphan')) return errorResult(`The worktree at ${path} is in use by ${holder ? `session ${holder}` : `another session (locked: ${row.locked})`}. Wait for that session to finish or choose a different worktree.`)
    const { state: _state, locked: _locked, ...info } = row
    const claimed = await service.claim({ ...info, owner: 'entered' }, sessionId)
    await service.update({ ...claimed, active: true })
    shell.cwd = path
    return { content: `Entered worktree at ${path}${row.branch ? ` on branch ${row.branch}` : ''}. This agent's working directory and write access now point at the worktree; the previous directory was left untouched.`, details: { worktreePath: path, worktreeBranch: row.branch } }
  }

  function done(action: 'keep' | 'remove', active: WorktreeInfo, message: string): ToolResult {
    return { content: message, details: { action, originalCwd: projectPath, worktreePath: active.path, worktreeBranch: active.branch } }
  }
}

/** A resumed session that had entered a worktree (and not left it) works there again. Contract: never rejects. */
export async function reenterWorktree(service: WorktreeService, projectPath: string, sessionId: string, shell: ShellState): Promise<void> {
  const active = await service.activeFor(sessionId, projectPath).catch(() => undefined)
  if (active?.owner === 'entered' && shell.cwd === projectPath) shell.cwd = active.path
}
