import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ServerEnd } from './stdio-transport'
import type { McpCallResult, McpContent, McpPromptInfo, McpResourceInfo, McpToolInfo } from './types'

/** Claude Code's ceiling for `anthropic/maxResultSizeChars`. */
const MAX_RESULT_CEILING = 500_000
/** Pages of a list to follow before giving up (a server that loops its cursor must not hang us). */
const MAX_PAGES = 50

type Log = (line: string) => void

/** Every tool of a server (all pages), or none when it offers no tools. Throws only when `strict`. */
export async function listTools(client: Client, log: Log, strict = false): Promise<McpToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return []
  return paged('tools', log, strict, async (cursor) => {
    const page = await client.listTools(cursor ? { cursor } : undefined)
    return { items: page.tools.map(toToolInfo), next: page.nextCursor }
  })
}

/** Every resource of a server (all pages). */
export async function listResources(client: Client, log: Log, strict = false): Promise<McpResourceInfo[]> {
  if (!client.getServerCapabilities()?.resources) return []
  return paged('resources', log, strict, async (cursor) => {
    const page = await client.listResources(cursor ? { cursor } : undefined)
    return {
      items: page.resources.map((resource) => ({
        uri: resource.uri,
        name: resource.name,
        ...(resource.description && { description: resource.description }),
        ...(resource.mimeType && { mimeType: resource.mimeType }),
      })),
      next: page.nextCursor,
    }
  })
}

/** Every prompt of a server (all pages). */
export async function listPrompts(client: Client, log: Log, strict = false): Promise<McpPromptInfo[]> {
  if (!client.getServerCapabilities()?.prompts) return []
  return paged('prompts', log, strict, async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : undefined)
    return {
      items: page.prompts.map((prompt) => ({
        name: prompt.name,
        ...(prompt.description && { description: prompt.description }),
        arguments: (prompt.arguments ?? []).map((arg) => ({ name: arg.name, ...(arg.description && { description: arg.description }), required: arg.required === true })),
      })),
      next: page.nextCursor,
    }
  })
}

async function paged<T>(what: string, log: Log, strict: boolean, fetch: (cursor?: string) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await fetch(cursor)
      items.push(...result.items)
      if (!result.next) return items
      cursor = result.next
    }
    log(`listing ${what} stopped after ${MAX_PAGES} pages`)
    return items
  } catch (error) {
    if (strict) throw error
    // A server whose list fails still serves the rest; the failure is in its log.
    log(`listing ${what} failed: ${(error as Error).message}`)
    return items
  }
}

function toToolInfo(tool: {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
  annotations?: Record<string, unknown>
  title?: string
  _meta?: Record<string, unknown>
}): McpToolInfo {
  const annotations = tool.annotations ?? {}
  const bool = (key: string) => (typeof annotations[key] === 'boolean' ? { [key]: annotations[key] as boolean } : {})
  const title = typeof annotations['title'] === 'string' ? annotations['title'] : tool.title
  const maxChars = tool._meta?.['anthropic/maxResultSizeChars']
  return {
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    annotations: { ...(title && { title }), ...bool('readOnlyHint'), ...bool('destructiveHint'), ...bool('idempotentHint'), ...bool('openWorldHint') },
    ...(typeof maxChars === 'number' && maxChars > 0 && { maxResultChars: Math.min(maxChars, MAX_RESULT_CEILING) }),
    requiresUserInteraction: tool._meta?.['anthropic/requiresUserInteraction'] === true,
  }
}

/** A tool result as plain data (old servers answer `{toolResult}`; it becomes JSON text). */
export function toCallResult(result: Record<string, unknown>): McpCallResult {
  if (!Array.isArray(result['content'])) {
    const legacy = 'toolResult' in result ? result['toolResult'] : result
    return { content: [{ type: 'text', text: JSON.stringify(legacy, null, 2) }], isError: false }
  }
  return {
    content: (result['content'] as unknown[]).map(toContent),
    ...(result['structuredContent'] !== undefined && { structuredContent: result['structuredContent'] }),
    isError: result['isError'] === true,
  }
}

/** One content block of a result, resource or prompt message. Unknown kinds become a note. */
export function toContent(block: unknown): McpContent {
  const item = (block ?? {}) as Record<string, unknown>
  const text = (key: string) => (typeof item[key] === 'string' ? (item[key] as string) : undefined)
  switch (item['type']) {
    case 'text':
      return { type: 'text', text: text('text') ?? '' }
    case 'image':
      return { type: 'image', data: text('data') ?? '', mimeType: text('mimeType') ?? 'application/octet-stream' }
    case 'audio':
      return { type: 'audio', mimeType: text('mimeType') ?? 'audio/*' }
    case 'resource': {
      const resource = (item['resource'] ?? {}) as Record<string, unknown>
      const field = (key: string) => (typeof resource[key] === 'string' ? { [key]: resource[key] as string } : {})
      return { type: 'resource', uri: typeof resource['uri'] === 'string' ? resource['uri'] : '', ...field('mimeType'), ...field('text'), ...field('blob') }
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: text('uri') ?? '',
        name: text('name') ?? '',
        ...(text('description') && { description: text('description') }),
        ...(text('mimeType') && { mimeType: text('mimeType') }),
      }
    default:
      return { type: 'text', text: `[unsupported content type ${JSON.stringify(item['type'])}]` }
  }
}

/** "exited with code 1", "was killed by SIGKILL", "could not start: spawn x ENOENT". */
export function describeEnd(end: ServerEnd): string {
  if ('gone' in end) return end.gone
  if ('error' in end) return `could not start: ${end.error}`
  if (end.signal) return `the server process was killed by ${end.signal}`
  return `the server process exited with code ${end.code ?? 'unknown'}`
}
