import { existsSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { CLASSIFIER_SYSTEM } from '../main/governance/auto/classifier'
import { SMALL_FAST_MODEL } from '../main/services/model/ask'
import { loadTranscript, transcriptPath } from '../main/store/transcript'

// `sous -p --permission-mode auto`: the real CLI, SDK and tools against the scripted server, whose
// classifier lane (`forModel`: the small, fast model) answers the classifier's requests.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })
const sous = (args: string[], env?: Record<string, string>) => headless.sous(args, env ? { env } : {})

const classifier = (text: string, extra: { delayMs?: number; chunkSize?: number } = {}) => ({ ...textReply(text), forModel: SMALL_FAST_MODEL, ...extra })
const writeCall = (file: string) => toolUseReply('Write', { file_path: join(headless.project, file), content: 'made\n' }, { id: 'toolu_write' })
type Result = { permission_denials: Array<{ tool_use_id: string }>; result: string }
const classifierRequests = () => server.requests.filter((request) => request.body['model'] === SMALL_FAST_MODEL)
/** The text of the tool result the model got back for its one call. */
const toolResultText = () => {
  const last = server.requests.filter((request) => request.body['model'] !== SMALL_FAST_MODEL).at(-1)
  const messages = last?.body['messages'] as Array<{ content: unknown }>
  return JSON.stringify(messages.at(-1)?.content)
}

describe('sous -p --permission-mode auto', () => {
  it('asks the classifier about a call no rule decides; allow runs the tool', async () => {
    server.setScenario([writeCall('made.txt'), classifier('allow: the user asked for made.txt in the project'), textReply('Written.')])
    const { code, stdout, stderr } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Please create made.txt'])
    expect(code).toBe(0)
    expect(stderr).not.toContain('no classifier')
    expect((JSON.parse(stdout) as Result).permission_denials).toEqual([])
    expect(readFileSync(join(headless.project, 'made.txt'), 'utf8')).toBe('made\n')
    const [request] = classifierRequests()
    expect(classifierRequests()).toHaveLength(1)
    expect(JSON.stringify(request?.body['system'])).toContain(CLASSIFIER_SYSTEM.split('\n')[0])
    const user = JSON.stringify(request?.body['messages'])
    // The digest: the user's prompt, the call, the working directory; nothing else of the conversation.
    expect(user).toContain('Please create made.txt')
    expect(user).toContain('tool_call name=\\"Write\\"')
    expect(user).toContain(`cwd=\\"${headless.project}\\"`)
    // The decision and its reason are in the transcript: a reopened session's card still says why.
    const sessionId = (JSON.parse(stdout) as { session_id: string }).session_id
    const stored = await loadTranscript(transcriptPath(headless.home, headless.project, sessionId))
    expect(stored?.events.filter((event) => event.type === 'auto_decision')).toEqual([expect.objectContaining({ toolUseId: 'toolu_write', decision: 'allow', reason: 'the user asked for made.txt in the project' })])
  })

  it('ask is refused as every headless ask is, with the reason and a way forward for the model', async () => {
    server.setScenario([writeCall('made.txt'), classifier('ask: the user did not ask for a new file'), textReply('I could not.')])
    const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Look around'])
    expect((JSON.parse(stdout) as Result).permission_denials.map((d) => d.tool_use_id)).toEqual(['toolu_write'])
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    const told = toolResultText()
    expect(told).toContain('the classifier asked: the user did not ask for a new file')
    expect(told).toContain('no one can approve it in headless mode')
  })

  it('a reply that is not a clean allow / ask is ask', async () => {
    for (const garbage of ['Sure, go ahead!', 'allow', 'allow: fine\nask: not fine', '{"decision":"allow"}']) {
      server.setScenario([writeCall('made.txt'), classifier(garbage), textReply('Stopped.')])
      const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Create made.txt'])
      expect((JSON.parse(stdout) as Result).permission_denials, garbage).toHaveLength(1)
      expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
      expect(toolResultText()).toContain('did not answer with a clean allow or ask')
    }
  })

  it('a classifier slower than its bound is ask', async () => {
    // 40 characters at 1 per delta, 100 ms apart: about 4 s, against a bound of 300 ms.
    server.setScenario([writeCall('made.txt'), classifier('allow: the user asked for this file now', { chunkSize: 1, delayMs: 100 }), textReply('Stopped.')])
    const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Create made.txt'], { SOUS_AUTO_MODE_TIMEOUT_MS: '300' })
    expect((JSON.parse(stdout) as Result).permission_denials).toHaveLength(1)
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(toolResultText()).toContain('the classifier did not answer within 0.3 s')
  })

  it('a classifier error is ask', async () => {
    server.setScenario([writeCall('made.txt'), { error: { status: 400, type: 'invalid_request_error', message: 'no such model' }, forModel: SMALL_FAST_MODEL }, textReply('Stopped.')])
    const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Create made.txt'])
    expect((JSON.parse(stdout) as Result).permission_denials).toHaveLength(1)
    expect(toolResultText()).toContain('the classifier request failed')
  })

  it("a subagent's calls are judged too, against the user's prompt, and named in sous-events", async () => {
    server.setScenario([
      toolUseReply('Agent', { description: 'Write the file', prompt: 'Create made.txt with the word made.', subagent_type: 'general-purpose', run_in_background: false }, { id: 'toolu_agent' }),
      writeCall('made.txt'),
      classifier('allow: the user asked for made.txt'),
      textReply('Created it.'),
      textReply('The helper created it.'),
    ])
    const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'sous-events', 'Have a helper create made.txt'])
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(true)
    const decision = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).find((event) => event['type'] === 'auto_decision')
    expect(decision).toMatchObject({ decision: 'allow', toolUseId: 'toolu_write', parent_tool_use_id: 'toolu_agent' })
    expect(decision?.['agentId']).not.toBe('main')
    expect(JSON.stringify(classifierRequests()[0]?.body['messages'])).toContain('Have a helper create made.txt')
  })

  it('CLAUDE_CODE_AUTO_MODE_MODEL picks the classifier model', async () => {
    server.setScenario([writeCall('made.txt'), { ...textReply('allow: asked for'), forModel: 'claude-opus-4-6' }, textReply('Written.')])
    const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Create made.txt'], { CLAUDE_CODE_AUTO_MODE_MODEL: 'claude-opus-4-6' })
    expect((JSON.parse(stdout) as Result).permission_denials).toEqual([])
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(true)
  })
})

describe('floors auto mode never lifts (the classifier is not even asked)', () => {
  const floors: Array<{ name: string; settings?: unknown; call: () => ReturnType<typeof toolUseReply>; hook?: 'ask' | 'deny' }> = [
    { name: 'a deny rule', settings: { permissions: { deny: ['Write'] } }, call: () => writeCall('made.txt') },
    { name: 'an ask rule', settings: { permissions: { ask: ['Write'] } }, call: () => writeCall('made.txt') },
    { name: 'a protected path (the settings file)', call: () => toolUseReply('Write', { file_path: join(headless.project, '.claude', 'settings.json'), content: '{}' }, { id: 'toolu_write' }) },
    { name: 'a command that evaluates text (eval)', call: () => toolUseReply('Bash', { command: 'eval "$(cat script.txt)"' }, { id: 'toolu_write' }) },
    { name: 'a command leaving the sandbox', call: () => toolUseReply('Bash', { command: 'touch made.txt', dangerouslyDisableSandbox: true }, { id: 'toolu_write' }) },
    { name: "a PreToolUse hook's ask", hook: 'ask', call: () => writeCall('made.txt') },
    { name: "a PreToolUse hook's deny", hook: 'deny', call: () => writeCall('made.txt') },
    { name: 'a settings file that cannot be parsed', call: () => writeCall('made.txt') },
  ]
  for (const floor of floors) {
    it(floor.name, async () => {
      await mkdir(join(headless.project, '.claude'), { recursive: true })
      if (floor.settings) await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify(floor.settings))
      if (floor.name.includes('cannot be parsed')) await writeFile(join(headless.project, '.claude', 'settings.local.json'), '{ "permissions": ')
      if (floor.hook) {
        const hook = `node -e "process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'${floor.hook}',permissionDecisionReason:'the hook wants a person'}}))"`
        await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: hook }] }] } }))
      }
      // Were the classifier asked, it would allow: the step stays unused (`loop` keeps the script from failing on it).
      server.setScenario([floor.call(), textReply('Stopped.')])
      const { stdout } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Do whatever it takes'])
      expect((JSON.parse(stdout) as Result).permission_denials.map((d) => d.tool_use_id)).toEqual(['toolu_write'])
      expect(classifierRequests()).toEqual([])
      expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    })
  }
})

describe("settings' defaultMode sets the starting mode", () => {
  it("a user's defaultMode auto starts headless runs in auto; --permission-mode overrides it", async () => {
    await writeFile(join(headless.home, 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'auto' } }))
    server.setScenario([writeCall('made.txt'), classifier('allow: asked for'), textReply('Written.')])
    const auto = await sous(['--output-format', 'stream-json', '--verbose', 'Create made.txt'])
    expect(auto.stdout).toContain('"permissionMode":"auto"')
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(true)
    server.requests.length = 0
    server.setScenario([toolUseReply('Write', { file_path: join(headless.project, 'other.txt'), content: 'x' }, { id: 'toolu_write' }), textReply('Stopped.')])
    const manual = await sous(['--permission-mode', 'manual', '--output-format', 'json', 'Create other.txt'])
    expect((JSON.parse(manual.stdout) as Result).permission_denials).toHaveLength(1)
    expect(classifierRequests()).toEqual([])
  })

  it("a repository's defaultMode of bypassPermissions or auto never takes effect (even where its files are obeyed); acceptEdits does", async () => {
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    for (const mode of ['bypassPermissions', 'auto']) {
      await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: mode } }))
      server.setScenario([writeCall('made.txt'), textReply('Stopped.')])
      const { stdout } = await sous(['--output-format', 'sous-events', 'Create made.txt'])
      expect(stdout, mode).toContain('"permissionMode":"default"')
      expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    }
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'acceptEdits' } }))
    server.setScenario([writeCall('made.txt'), textReply('Written.')])
    const { stdout } = await sous(['--output-format', 'json', 'Create made.txt'])
    expect((JSON.parse(stdout) as Result).permission_denials).toEqual([])
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(true)
  })
})
