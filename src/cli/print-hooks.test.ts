import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message } from '../main/services/model/types'

// What hooks answer reaches the model (or stops the turn), as Claude Code documents: `sous -p`
// in-process with real hook scripts, the real SDK against the scripted server, real transcripts.
const server = useModelServer()

const headless = useHeadless(server)
const sous = (args: string[]) => headless.sous(args)

beforeEach(async () => {
  await mkdir(join(headless.project, '.claude'))
  await writeFile(join(headless.project, 'there.txt'), 'hello\n')
})

/** A hook script file (bash) that gets the hook's JSON on stdin. */
async function script(name: string, body: string): Promise<string> {
  const file = join(headless.project, `${name}.sh`)
  await writeFile(file, `#!/bin/bash\n${body}\n`)
  await chmod(file, 0o755)
  return file
}

async function hooks(config: Record<string, Array<{ matcher?: string; command: string }>>): Promise<void> {
  const entries = Object.entries(config).map(([event, list]) => [event, list.map(({ matcher, command }) => ({ ...(matcher && { matcher }), hooks: [{ type: 'command', command }] }))])
  await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ hooks: Object.fromEntries(entries) }))
}

/** The last user message of request `index`, as text. */
function lastUserText(index: number): string {
  const messages = server.requests[index]!.body['messages'] as Message[]
  return JSON.stringify(messages.at(-1))
}

const read = (id: string, file = 'there.txt') => toolUseReply('Read', { file_path: join(headless.project, file) }, { id })

describe('PostToolUse and PostToolUseFailure outcomes reach the model', () => {
  it('additionalContext, a block reason and exit-2 stderr come with the next request, after the results', async () => {
    const context = await script('context', `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings"}}'`)
    const block = await script('block', `cat > /dev/null; echo '{"decision":"block","reason":"the file is generated; edit the template"}'`)
    const stderr = await script('stderr', 'cat > /dev/null; echo "formatter changed 3 lines" >&2; exit 2')
    const failure = await script('failure', `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"the file lives in docs/"}}'`)
    await hooks({ PostToolUse: [{ matcher: 'Read', command: context }, { matcher: 'Read', command: block }, { matcher: 'Read', command: stderr }], PostToolUseFailure: [{ command: failure }] })
    server.setScenario([read('toolu_ok'), read('toolu_missing', 'missing.txt'), textReply('Done.')])
    const { code } = await sous(['Read'])
    expect(code).toBe(0)
    const second = lastUserText(1)
    expect(second.indexOf('tool_result')).toBeLessThan(second.indexOf('system-reminder'))
    expect(second).toContain('PostToolUse hook feedback on the Read call toolu_ok')
    expect(second).toContain('lint: 2 warnings')
    expect(second).toContain('the file is generated; edit the template')
    expect(second).toContain('formatter changed 3 lines')
    const third = lastUserText(2)
    expect(third).toContain('PostToolUseFailure hook feedback on the Read call toolu_missing')
    expect(third).toContain('the file lives in docs/')
    expect(third).not.toContain('lint: 2 warnings')
  })

  it('continue: false ends the turn once the results are in, and every call keeps its result', async () => {
    const stop = await script('stop', `cat > /dev/null; echo '{"continue":false,"stopReason":"build is broken, stopping"}'`)
    await hooks({ PostToolUse: [{ matcher: 'Read', command: stop }] })
    server.setScenario([read('toolu_one'), textReply('never asked')])
    const { code, stderr, stdout } = await sous(['--output-format', 'json', 'Read'])
    expect(code).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(JSON.parse(stdout)).toMatchObject({ terminal_reason: 'hook_stopped' })
    expect(stderr).toContain('build is broken, stopping')
    // The transcript pairs the call with its result.
    const { readdir } = await import('node:fs/promises')
    const sessions = join(headless.home, 'projects')
    const [slug] = await readdir(sessions)
    const [file] = await readdir(join(sessions, slug!, 'sessions'))
    const transcript = await readFile(join(sessions, slug!, 'sessions', file!), 'utf8')
    expect(transcript).toContain('"tool_use_id":"toolu_one"')
  })
})

describe('Stop and PreToolUse hooks', () => {
  it('a Stop hook gets last_assistant_message', async () => {
    const seen = join(headless.project, 'stop-input.json')
    const stop = await script('stop', `cat > ${seen}`)
    await hooks({ Stop: [{ command: stop }] })
    server.setScenario([textReply('All tests pass.')])
    expect((await sous(['Go'])).code).toBe(0)
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'All tests pass.', stop_hook_active: false })
  })

  it('a PreToolUse deny larger than 10 KB is read whole and blocks the call', async () => {
    const reason = 'x'.repeat(50_000)
    const deny = await script('deny', `cat > /dev/null; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no: %s"}}' '${reason}'`)
    await hooks({ PreToolUse: [{ matcher: 'Bash', command: deny }] })
    server.setScenario([toolUseReply('Bash', { command: 'touch made.txt' }, { id: 'toolu_touch' }), textReply('Blocked.')])
    const { code } = await sous(['--permission-mode', 'bypassPermissions', 'Touch'])
    expect(code).toBe(0)
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(lastUserText(1)).toContain('no: xxxx')
  })

  it('an unreadable answer is no decision after exit 0, and a block after exit 2', async () => {
    const garbled = await script('garbled', `cat > /dev/null; echo '{"hookSpecificOutput": {"permissionDecision": "deny"'`)
    await hooks({ PreToolUse: [{ matcher: 'Read', command: garbled }] })
    server.setScenario([read('toolu_read'), textReply('Read it.')])
    const passed = await sous(['--verbose', 'Read'])
    expect(passed.code).toBe(0)
    // Read needs no approval, so with no decision it runs.
    expect(lastUserText(1)).toContain('hello')
    expect(passed.stderr).toMatch(/not valid JSON/)

    const blocking = await script('blocking', `cat > /dev/null; echo '{"oops'; echo "policy says no" >&2; exit 2`)
    await hooks({ PreToolUse: [{ matcher: 'Read', command: blocking }] })
    server.setScenario([read('toolu_blocked'), textReply('Blocked.')])
    const before = server.requests.length
    const blocked = await sous(['Read'])
    expect(blocked.code).toBe(0)
    expect(lastUserText(before + 1)).toContain('policy says no')
    expect(lastUserText(before + 1)).not.toContain('hello')
  })

  it('PreToolUse continue: false ends the turn', async () => {
    const stop = await script('stop', `cat > /dev/null; echo '{"continue":false,"stopReason":"maintenance window"}'`)
    await hooks({ PreToolUse: [{ matcher: 'Read', command: stop }] })
    server.setScenario([read('toolu_read'), textReply('never asked')])
    const { code, stderr } = await sous(['Read'])
    expect(code).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(stderr).toContain('maintenance window')
  })
})
