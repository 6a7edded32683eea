#!/usr/bin/env node
/**
 * A small MCP server over stdio, written with the SDK, for Sous's tests and benchmarks. Plain
 * JavaScript so it starts in a few tens of milliseconds under `node`.
 *
 * Behaviour is chosen by environment variables:
 *   FIXTURE_START_DELAY_MS  wait this long before answering anything (a slow server)
 *   FIXTURE_NAME            the server name it reports (default "fixture")
 *   FIXTURE_EXIT_AT_START   exit with this code before the handshake (a server that cannot start)
 *   FIXTURE_STDERR          a line written to stderr at start (its log)
 *   FIXTURE_PID_FILE        write "<pid> <parent pid>" to this file at start (where it runs)
 *
 * Tools: echo (read-only), add, crash (exits with code 3 mid-call), hang (never answers),
 * sleep {ms} (answers after ms, reports its own time), big {chars}, env (its environment, JSON),
 * add_tool (registers `late_tool`, which sends tools/list_changed), fail (an isError result).
 * Resources: fixture://readme (text). Prompts: review {file, focus?}.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { writeFileSync } from 'node:fs'
import { z } from 'zod'

const delay = Number(process.env.FIXTURE_START_DELAY_MS ?? 0)
if (process.env.FIXTURE_PID_FILE) writeFileSync(process.env.FIXTURE_PID_FILE, `${process.pid} ${process.ppid}`)
if (process.env.FIXTURE_STDERR) process.stderr.write(`${process.env.FIXTURE_STDERR}\n`)
if (process.env.FIXTURE_EXIT_AT_START) {
  process.stderr.write('fixture: refusing to start\n')
  process.exit(Number(process.env.FIXTURE_EXIT_AT_START))
}
if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))

const server = new McpServer({ name: process.env.FIXTURE_NAME ?? 'fixture', version: '1.0.0' }, { instructions: 'A fixture server for tests.' })
const text = (value) => ({ content: [{ type: 'text', text: value }] })

server.registerTool(
  'echo',
  { description: 'Echoes the message back.', inputSchema: { message: z.string() }, annotations: { readOnlyHint: true, destructiveHint: false } },
  async ({ message }) => text(`echo: ${message}`),
)
server.registerTool(
  'add',
  { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, annotations: { destructiveHint: false } },
  async ({ a, b }) => text(String(a + b)),
)
server.registerTool('crash', { description: 'Exits the server process with code 3.' }, async () => {
  process.stderr.write('fixture: crashing on purpose\n')
  process.exit(3)
})
server.registerTool('hang', { description: 'Never answers.', annotations: { readOnlyHint: true } }, () => new Promise(() => {}))
server.registerTool(
  'sleep',
  { description: 'Answers after ms milliseconds and reports its own time.', inputSchema: { ms: z.number() }, annotations: { readOnlyHint: true } },
  async ({ ms }) => {
    const started = performance.now()
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms))
    return { content: [{ type: 'text', text: 'slept' }], structuredContent: { serverMs: performance.now() - started } }
  },
)
server.registerTool('big', { description: 'Returns chars characters.', inputSchema: { chars: z.number() }, annotations: { readOnlyHint: true } }, async ({ chars }) =>
  text('x'.repeat(chars)),
)
server.registerTool('env', { description: 'Returns the environment.', annotations: { readOnlyHint: true } }, async () => text(JSON.stringify(process.env)))
server.registerTool('fail', { description: 'Answers with an error result.' }, async () => ({ content: [{ type: 'text', text: 'it went wrong' }], isError: true }))
server.registerTool('add_tool', { description: 'Adds the tool late_tool.' }, async () => {
  server.registerTool('late_tool', { description: 'A tool that arrived later.', annotations: { readOnlyHint: true } }, async () => text('late tool ran'))
  return text('added late_tool')
})
server.registerResource('readme', 'fixture://readme', { description: 'The fixture readme.', mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Fixture readme: hello from a resource.' }],
}))
server.registerPrompt(
  'review',
  { description: 'Review a file.', argsSchema: { file: z.string(), focus: z.string().optional() } },
  ({ file, focus }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please review ${file}${focus ? ` with a focus on ${focus}` : ''}.` } }] }),
)

await server.connect(new StdioServerTransport())
