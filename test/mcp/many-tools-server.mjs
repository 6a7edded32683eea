#!/usr/bin/env node
/**
 * An MCP server over stdio with MANY_TOOLS tools (default 50), each with a realistic schema (a few
 * typed parameters, descriptions of ordinary length): what a large real server (an issue tracker,
 * a cloud console) offers. Used by bench/deferred-tools.bench.ts.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const count = Number(process.env.MANY_TOOLS ?? 50)
const server = new McpServer({ name: 'tracker', version: '1.0.0' })
const areas = ['issue', 'project', 'comment', 'label', 'milestone', 'user', 'team', 'webhook', 'release', 'board']
const verbs = ['create', 'get', 'update', 'delete', 'list']
for (let i = 0; i < count; i++) {
  const area = areas[i % areas.length]
  const verb = verbs[Math.floor(i / areas.length) % verbs.length]
  server.registerTool(
    `${verb}_${area}${i >= 50 ? `_${i}` : ''}`,
    {
      description: `${verb[0].toUpperCase()}${verb.slice(1)}s a ${area} in the tracker. Use it when the user asks to ${verb} a ${area}; it returns the ${area} as JSON with its id, title, state, owner and timestamps. Fails with a clear message when the ${area} does not exist or you lack access.`,
      inputSchema: {
        workspace: z.string().describe('The workspace slug, as in the tracker URL.'),
        id: z.string().optional().describe(`The ${area} id (not needed to create or list).`),
        title: z.string().optional().describe(`A short title for the ${area}.`),
        body: z.string().optional().describe('Markdown text of the description.'),
        state: z.enum(['open', 'closed', 'archived']).optional().describe('Filter or set the state.'),
        limit: z.number().int().min(1).max(100).optional().describe('How many results to return (list only).'),
      },
      annotations: { readOnlyHint: verb === 'get' || verb === 'list' },
    },
    async (args) => ({ content: [{ type: 'text', text: JSON.stringify({ ok: true, tool: `${verb}_${area}`, args }) }] }),
  )
}
await server.connect(new StdioServerTransport())
