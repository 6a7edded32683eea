import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createToolContext, createToolSession } from '../../src/main/tools/tool-session'
import type { ToolSession } from '../../src/main/tools/tool-session'
import type { ToolContext } from '../../src/main/tools/types'

/** A temp project with a session, for tool tests (and benchmarks). Call `cleanup` when done. */
export function makeTestWorld(prefix = 'sous-tools-') {
  const root = mkdtempSync(join(tmpdir(), prefix))
  const projectDataDir = join(root, '.data')
  const project = join(root, 'project')
  mkdirSync(project)
  let session: ToolSession = createToolSession({ cwd: project })
  let calls = 0
  return {
    root,
    project,
    projectDataDir,
    get session() {
      return session
    },
    /** A fresh session (new file-state cache, new shell state). */
    async newSession() {
      await session.dispose()
      session = createToolSession({ cwd: project })
    },
    ctx(extra: Partial<ToolContext> = {}): ToolContext {
      return createToolContext(session, {
        cwd: project,
        projectRoot: project,
        projectDataDir,
        sessionId: 's1',
        agentId: 'main',
        toolUseId: `toolu_${++calls}`,
        signal: new AbortController().signal,
        ...extra,
      })
    },
    async cleanup() {
      await session.dispose()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
