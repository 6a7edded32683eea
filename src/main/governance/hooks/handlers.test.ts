import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply } from '../../../../test/model-server'
import { makeTempProject, type TempProject } from '../../../../test/support/governance'
import { askOnce } from '../../services/model/ask'
import { AnthropicModelService, resolveModelConfig } from '../../services/model'
import { loadSettings } from '../settings/load'
import { hooksOverview } from './inspector'
import { HookLog } from './log'
import { urlRefusal } from './run-http'
import { HookRunner } from './runner'
import type { HookModelAsk } from './run-prompt'

// Claude Code's hook handler types as Sous runs them: command in exec form, http against a real
// loopback endpoint, prompt through the real model service and SDK against the scripted server.
let project: TempProject
afterEach(() => project?.cleanup())

/** A loopback hook endpoint: each path answers its own way; every request body is kept. */
const received: Array<{ path: string; body: unknown; headers: IncomingMessage['headers'] }> = []
let endpoint: Server
let base: string
beforeAll(async () => {
  endpoint = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(body) as unknown, headers: req.headers })
      if (req.url === '/deny') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'the endpoint says no' } }))
      } else if (req.url === '/garbage') {
        res.writeHead(200)
        res.end('<html>not a hook answer</html>')
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('{}'), 3_000).unref()
      } else if (req.url === '/error') {
        res.writeHead(500)
        res.end('boom')
      } else if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://example.com/' })
        res.end()
      } else res.end('')
    })
  })
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())))

function runnerFor(hooks: Record<string, unknown>, extra: { askModel?: HookModelAsk; settings?: Record<string, unknown> } = {}) {
  writeFileSync(join(project.root, '.claude', 'settings.json'), JSON.stringify({ hooks, ...extra.settings }))
  const { settings } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
  const log = new HookLog()
  const runner = new HookRunner({ hooks: settings.hooks, sessionId: 's1', projectRoot: project.root, log, env: { PATH: process.env['PATH'], SECRET_TOKEN: 'tok-123' }, allowedHttpHookUrls: settings.allowedHttpHookUrls, ...(extra.askModel && { askModel: extra.askModel }) })
  return { runner, log }
}

const pre = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' })
const fire = (runner: HookRunner, command = 'ls') => runner.fire('PreToolUse', pre(command), { cwd: project.root, permissionMode: 'default' })

describe('command hooks in exec form', () => {
  it('runs command + args without a shell: arguments reach the program as written', async () => {
    project = makeTempProject()
    const out = join(project.base, 'argv.json')
    const file = join(project.base, 'argv.js')
    writeFileSync(file, `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(2)))\n`)
    chmodSync(file, 0o755)
    const { runner } = runnerFor({ PreToolUse: [{ hooks: [{ type: 'command', command: file, args: ['$HOME; echo pwned', '*'] }] }] })
    const agg = await fire(runner)
    expect(agg.errors).toEqual([])
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(['$HOME; echo pwned', '*'])
  })
})

describe('http hooks', () => {
  it('POSTs the same JSON a command hook reads and folds the answer by the same protocol; headers name only allowed variables', async () => {
    project = makeTempProject()
    received.length = 0
    const { runner, log } = runnerFor({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: `${base}/deny`, headers: { authorization: 'Bearer $SECRET_TOKEN', 'x-other': '${PATH}' }, allowedEnvVars: ['SECRET_TOKEN'] }] }] })
    const agg = await fire(runner, 'rm -rf x')
    expect(agg).toMatchObject({ permission: 'deny', permissionReason: 'the endpoint says no', errors: [] })
    expect(received[0]).toMatchObject({ path: '/deny', body: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf x' }, session_id: 's1' } })
    expect(received[0]!.headers['authorization']).toBe('Bearer tok-123')
    expect(received[0]!.headers['x-other']).toBe('')
    expect(log.entries()[0]).toMatchObject({ command: `POST ${base}/deny`, exitCode: 0 })
  })

  it('unreachable, slow, failing, redirecting or garbage answers are non-blocking errors in the log', async () => {
    project = makeTempProject()
    const closed = `http://127.0.0.1:1/hook`
    const hooks = ['/garbage', '/slow', '/error', '/redirect'].map((path) => ({ type: 'http', url: `${base}${path}`, timeout: 1 }))
    const { runner, log } = runnerFor({ PreToolUse: [{ hooks: [...hooks, { type: 'http', url: closed }] }] })
    const agg = await fire(runner)
    expect(agg.blocked).toBe(false)
    expect(agg.permission).toBeUndefined()
    const errors = Object.fromEntries(log.entries().map((entry) => [entry.command.replace(base, ''), entry.error]))
    expect(errors).toEqual({
      'POST /garbage': expect.stringContaining('not JSON'),
      'POST /slow': expect.stringContaining('timed out after 1000 ms'),
      'POST /error': 'http hook answered HTTP 500',
      'POST /redirect': expect.stringContaining('redirects are not followed'),
      [`POST ${closed}`]: expect.stringContaining('could not reach'),
    })
    expect(agg.errors).toHaveLength(5)
  })

  it('reaches only this machine unless allowedHttpHookUrls names the URL', async () => {
    expect(urlRefusal('http://localhost:9/x', [])).toBeUndefined()
    expect(urlRefusal('http://[::1]:9/x', [])).toBeUndefined()
    expect(urlRefusal('https://hooks.example.com/a', [])).toContain('matches no pattern in allowedHttpHookUrls')
    expect(urlRefusal('https://hooks.example.com/a', ['https://hooks.example.com/*'])).toBeUndefined()
    expect(urlRefusal('https://hooks.example.com.evil.net/a', ['https://hooks.example.com/*'])).toBeDefined()
    expect(urlRefusal('file:///etc/passwd', ['*'])).toContain('http or https')
    project = makeTempProject()
    const { runner, log } = runnerFor({ PreToolUse: [{ hooks: [{ type: 'http', url: 'https://hooks.example.com/a' }] }] })
    await fire(runner)
    expect(log.entries()[0]?.error).toContain('http hook blocked')
  })
})

describe('prompt hooks', () => {
  it('ask a small model through the real model service; allow / deny / ask with a reason, anything else is no decision', async () => {
    project = makeTempProject()
    const server = await startModelServer({
      scenario: [
        { ...textReply('{"decision": "deny", "reason": "deleting the build folder needs a human"}'), expect: (request) => expect(JSON.stringify(request.body['messages'])).toContain('rm -rf build') },
        textReply('```json\n{"ok": false, "reason": "not on Fridays"}\n```'),
        textReply('Sure, looks fine to me!'),
      ],
    })
    try {
      const config = resolveModelConfig({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url }, {})
      if (!config.ok) throw new Error(config.error.message)
      const service = new AnthropicModelService(config.value)
      const askModel: HookModelAsk = async ({ system, user, model, signal }) => (await askOnce(service, { model: model ?? 'claude-haiku-4-5', system, user, maxTokens: 256, signal })).text
      const { runner, log } = runnerFor({ PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'May this run? $ARGUMENTS', model: 'claude-haiku-4-5' }] }] }, { askModel })
      expect(await fire(runner, 'rm -rf build')).toMatchObject({ permission: 'deny', permissionReason: 'deleting the build folder needs a human' })
      expect(await fire(runner, 'git push')).toMatchObject({ permission: 'deny', permissionReason: 'not on Fridays' })
      const vague = await fire(runner, 'ls')
      expect(vague.permission).toBeUndefined()
      expect(vague.errors.join()).toContain('did not answer with a clean allow / deny / ask')
      expect(server.requests.map((request) => request.body['model'])).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5', 'claude-haiku-4-5'])
      expect(log.entries()[0]?.command).toBe('prompt: May this run? $ARGUMENTS (claude-haiku-4-5)')
      expect(server.failures).toEqual([])
    } finally {
      await server.close()
    }
  })
})

describe('handlers Sous does not run', () => {
  it('agent and mcp_tool hooks are listed in the inspector as not run by Sous, and never fire', async () => {
    project = makeTempProject()
    const hooks = { PreToolUse: [{ hooks: [{ type: 'agent', prompt: 'Check the call' }, { type: 'mcp_tool', server: 'lint', tool: 'check' }, { type: 'command', command: 'true' }] }] }
    const { runner } = runnerFor(hooks)
    expect((await fire(runner)).count).toBe(1)
    const overview = hooksOverview(project.root, { sousHome: project.sousHome, userHome: project.home, projectTrust: 'assume', log: new HookLog() })
    expect(overview.hooks.map((hook) => [hook.command, hook.applies, hook.reason ?? ''])).toEqual([
      ['agent: Check the call', false, expect.stringContaining('not run by Sous')],
      ['mcp_tool lint/check', false, expect.stringContaining('not run by Sous')],
      ['true', true, ''],
    ])
  })
})
