import type { ReminderQueue } from '../context/reminders'
import type { Message, ToolSchema } from '../services/model/types'
import { loadedTools, offerTools } from './deferred-tools'
import type { AnyTool } from '../tools/types'
import type { RunToolDeps } from './tool-call'
import type { QueryParams } from './types'

/**
 * The tools of the next request. A session whose tools change while it runs (MCP servers joining,
 * `tools/list_changed`) passes `currentTools`; it is read before every request, and schemas and
 * lookups are rebuilt only when it returns a different array. With a tool search policy, some
 * tools are deferred (see deferred-tools.ts): offered with `defer_loading`, runnable once a
 * ToolSearch result in the conversation has loaded them.
 */
export class ToolView {
  schemas: ToolSchema[]
  deps: Omit<RunToolDeps, 'emit'>
  private tools: AnyTool[]
  private runnable: AnyTool[]
  private deferred: ReadonlySet<string>
  private loaded = new Set<string>()

  constructor(
    private readonly params: QueryParams,
    private readonly reminders: ReminderQueue,
    /** Switches the run's model (see `ToolContext.useModel`). */
    private readonly useModel: (model: string) => void,
  ) {
    this.tools = params.tools
    const offered = offerTools(this.tools, params.toolSearch)
    this.schemas = offered.schemas
    this.runnable = offered.runnable
    this.deferred = offered.deferred
    this.deps = this.depsFor()
  }

  /** Reads the session's tools again before a request; returns the ones this request offers. */
  refresh(messages: readonly Message[] = []): AnyTool[] {
    const next = this.params.currentTools?.() ?? this.params.tools
    if (next !== this.tools) {
      this.tools = next
      const offered = offerTools(next, this.params.toolSearch)
      this.schemas = offered.schemas
      this.runnable = offered.runnable
      this.deferred = offered.deferred
      this.deps = this.depsFor()
    }
    if (this.deferred.size > 0) {
      this.loaded = loadedTools(messages)
    }
    return this.runnable
  }

  private depsFor(): Omit<RunToolDeps, 'emit'> {
    const deps = toolDepsOf(this.params, this.runnable, this.reminders, this.useModel)
    if (this.deferred.size > 0) deps.notLoaded = (name) => this.deferred.has(name) && !this.loaded.has(name)
    return deps
  }
}

function toolDepsOf(params: QueryParams, tools: AnyTool[], reminders: ReminderQueue, useModel: (model: string) => void): Omit<RunToolDeps, 'emit'> {
  const deps: Omit<RunToolDeps, 'emit'> = {
    remind: (text, source) => reminders.push(text, { source }),
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    canUseTool: params.canUseTool,
    ...(params.toolSummaries && { summaries: params.toolSummaries }),
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
