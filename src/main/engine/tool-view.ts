import type { ReminderQueue } from '../context/reminders'
import type { ToolSchema } from '../services/model/types'
import type { AnyTool } from '../tools/types'
import type { RunToolDeps } from './tool-call'
import type { QueryParams } from './types'

/**
 * The tools of the next request. A session whose tools change while it runs (MCP servers joining,
 * `tools/list_changed`) passes `currentTools`; it is read before every request, and schemas and
 * lookups are rebuilt only when it returns a different array.
 */
export class ToolView {
  schemas: ToolSchema[]
  deps: Omit<RunToolDeps, 'emit'>
  private tools: AnyTool[]

  constructor(
    private readonly params: QueryParams,
    private readonly reminders: ReminderQueue,
    /** Switches the run's model (see `ToolContext.useModel`). */
    private readonly useModel: (model: string) => void,
  ) {
    this.tools = params.tools
    this.schemas = toolSchemas(this.tools)
    this.deps = toolDepsOf(params, this.tools, reminders, useModel)
  }

  /** Reads the session's tools again before a request; returns the ones this request offers. */
  refresh(): AnyTool[] {
    const next = this.params.currentTools?.() ?? this.params.tools
    if (next !== this.tools) {
      this.tools = next
      this.schemas = toolSchemas(next)
      this.deps = toolDepsOf(this.params, next, this.reminders, this.useModel)
    }
    return this.tools
  }
}

function toolDepsOf(params: QueryParams, tools: AnyTool[], reminders: ReminderQueue, useModel: (model: string) => void): Omit<RunToolDeps, 'emit'> {
  const deps: Omit<RunToolDeps, 'emit'> = {
    remind: (text, source) => reminders.push(text, { source }),
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    canUseTool: params.canUseTool,
    context: {
      cwd: params.cwd,
      projectRoot: params.projectRoot,
      projectDataDir: params.projectDataDir,
      sessionId: params.sessionId,
      agentId: params.agentId,
      ...params.toolContext,
      useModel,
    },
  }
  if (params.hooks) deps.hooks = params.hooks
  return deps
}

/** The tools as the API sees them (the same bytes in every request while the tools stay the same). */
export function toolSchemas(tools: AnyTool[]): ToolSchema[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema }))
}
