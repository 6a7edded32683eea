import { createBashTool } from './bash'
import type { BashToolDeps } from './bash'
import { editTool } from './edit'
import { globTool } from './glob'
import { grepTool } from './grep'
import { readTool } from './read'
import { taskOutputTool } from './task-output'
import { taskStopTool } from './task-stop'
import type { AnyTool } from './types'
import { webFetchTool } from './web-fetch'
import { writeTool } from './write'

/** What the core tools need from the host. */
export type CoreToolDeps = BashToolDeps

/**
 * The core tools, in the order the model sees them. Adding a tool: one file, one line here.
 * (TodoWrite and the task tools arrive with their own issue.)
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
  ]
}
