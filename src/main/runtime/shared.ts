import type { HookLog } from '../governance/hooks/log'
import type { MemoryService } from '../memory/service'
import type { ApprovalQueues } from '../governance/approvals/registry'
import type { ModelCache } from '../services/model/cache'
import type { NetworkAsks } from '../governance/sandbox/shared/network-asks'
import type { ProjectTrust, SessionRuntimeOptions } from './options'
import type { McpRegistry } from '../services/mcp/registry'
import type { SharedSandbox } from '../governance/sandbox/shared/shared-sandbox'
import type { WorktreeService } from '../worktrees/service'

/** What every session of one runtime shares. */
export interface RuntimeParts {
  options: SessionRuntimeOptions
  approvals: ApprovalQueues
  hookLog: HookLog
  network: NetworkAsks
  sandbox: SharedSandbox
  models: ModelCache
  userHome: string
  /** The memory of every project, shared with the memory browser's handlers (undo, proposals). */
  memory: MemoryService
  /** Every open project's MCP servers. */
  mcp: McpRegistry
  trust: ProjectTrust
  /** Git worktrees for sessions, EnterWorktree and Agent calls with `isolation: "worktree"`. */
  worktrees: WorktreeService
}
