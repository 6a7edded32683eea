import { createBashTool } from './bash'
import type { BashToolDeps } from './bash'
import { compactTool } from './compact'
import { editTool } from './edit'
import { enterPlanModeTool } from './enter-plan-mode'
import { exitPlanModeTool } from './exit-plan-mode'
import { enterWorktreeTool } from './enter-worktree'
import { exitWorktreeTool } from './exit-worktree'
import { globTool } from './glob'
import { grepTool } from './grep'
import { readTool } from './read'
import { taskCreateTool } from './task-create'
import { taskGetTool } from './task-get'
import { taskListTool } from './task-list'
import { taskOutputTool } from './task-output'
import { taskStopTool } from './task-stop'
import { taskUpdateTool } from './task-update'
import type { AnyTool } from './types'
import { webFetchTool } from './web-fetch'
import { writeTool } from './write'

/** What the core tools need from the host. */
export type CoreToolDeps = BashToolDeps

/**
 * The core tools, in the order the model sees them. Adding a tool: one file, one line here.
 */
export function createCoreTools(deps: CoreToolDeps): AnyTool[] {
  return [
    createBashTool(deps),
    readTool,
    writeTool,
    editTool,
    globTool,
    grepTool,
    webFetchTool,
    taskOutputTool,
    taskStopTool,
    taskCreateTool,
    taskGetTool,
    taskListTool,
    taskUpdateTool,
    enterPlanModeTool,
    exitPlanModeTool,
    enterWorktreeTool,
    exitWorktreeTool,
    compactTool,
  ]
}
