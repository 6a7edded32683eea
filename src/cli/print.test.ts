import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  dropConnection,
  overloaded,
  textReply,
  toolUseReply,
  toolUsesReply,
  type JsonStep,
} from '../../test/model-server'
import type { Message, ToolResultBlock } from '../main/services/model/types'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'

// `sous -p` in-process: real model service and SDK against the scripted server, real tools
// (Bash on a real PTY), real transcripts in a temp SOUS_HOME.
const server = useModelServer()

const headless = useHeadless(server, { inheritPath: true })
const sous = (args: string[], stdin?: string, env: Record<string, string> = {}) => headless.sous(args, { stdin, env })

function lastResults(index: number): ToolResultBlock[] {
  const messages = server.requests[index]!.body['messages'] as Message[]
  return messages.at(-1)!.content as ToolResultBlock[]
}

describe('sous -p', () => {
  it('reads and edits a file with acceptEdits', async () => {
    const file = join(headless.project, 'greeting.txt')
    await writeFile(file, 'hello world\n')
    server.setScenario([
      toolUseReply('Read', { file_path: file }),
      toolUseReply('Edit', { file_path: file, old_string: 'world', new_string: 'sous' }),
      textReply('Changed the greeting.'),
    ])
    const { code, stdout } = await sous(['--permission-mode', 'acceptEdits', '--output-format', 'json', 'Fix the greeting'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as Record<string, unknown>
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'Changed the greeting.', num_turns: 3 })
    expect(result['permission_denials']).toEqual([])
    expect(await readFile(file, 'utf8')).toBe('hello sous\n')
    expect(server.failures).toEqual([])
  })

  it('denies an edit in default mode and reports it', async () => {
    const file = join(headless.project, 'keep.txt')
    await writeFile(file, 'keep me\n')
    server.setScenario([
      toolUseReply('Read', { file_path: file }),
      toolUseReply('Write', { file_path: file, content: 'gone' }, { id: 'toolu_write' }),
      textReply('I could not write the file.'),
    ])
    const { code, stdout } = await sous(['--output-format', 'json', 'Overwrite it'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as { permission_denials: Array<Record<string, unknown>> }
    expect(result.permission_denials).toEqual([{ tool_name: 'Write', tool_use_id: 'toolu_write', tool_input: { file_path: file, content: 'gone' }, message: expect.stringContaining('Write needs approval (Write changes a file)') }])
    expect(await readFile(file, 'utf8')).toBe('keep me\n')
    expect(lastResults(2)[0]).toMatchObject({ is_error: true })
  })

  it('runs a command with Bash on a real PTY', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'echo from-$((40+2))' }), textReply('The command printed from-42.')])
    const { code, stdout } = await sous(['--permission-mode', 'bypassPermissions', 'Run it'])
    expect(code).toBe(0)
    expect(stdout).toBe('The command printed from-42.\n')
    expect(JSON.stringify(lastResults(1))).toContain('from-42')
  })

  it('runs parallel reads and returns results in order', async () => {
    await writeFile(join(headless.project, 'a.txt'), 'alpha\n')
    await writeFile(join(headless.project, 'b.txt'), 'beta\n')
    server.setScenario([
      toolUsesReply([
        { name: 'Read', input: { file_path: join(headless.project, 'a.txt') } },
        { name: 'Read', input: { file_path: join(headless.project, 'b.txt') } },
      ]),
      textReply('Both read.'),
    ])
    const { code } = await sous(['Read both'])
    expect(code).toBe(0)
    const results = lastResults(1).map((block) => JSON.stringify(block.content))
    expect(results[0]).toContain('alpha')
    expect(results[1]).toContain('beta')
  })

  it('waits out an overloaded API and succeeds', async () => {
    server.setScenario([overloaded(), textReply('Fine now.')])
    const { code, stdout } = await sous(['hi'])
    expect(code).toBe(0)
    expect(stdout).toBe('Fine now.\n')
    expect(server.requests).toHaveLength(2)
  })

  it('ends non-zero with max_tokens when replies keep getting cut', async () => {
    const cut: JsonStep = textReply('too long', { stopReason: 'max_tokens' })
    server.setScenario([cut, cut, cut, cut, cut])
    const { code, stdout, stderr } = await sous(['--output-format', 'json', 'Write a novel'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^sous: max_tokens/)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(stdout)).toMatchObject({ is_error: true, terminal_reason: 'max_tokens', subtype: 'error_during_execution' })
  })

  it('recovers from a dropped stream', async () => {
    server.setScenario([dropConnection('mid-stream', 2), textReply('Complete answer.')])
    const { code, stdout } = await sous(['hi'])
    expect(code).toBe(0)
    expect(stdout).toBe('Complete answer.\n')
  })

  it('runs a 30-turn session', async () => {
    const file = join(headless.project, 'data.txt')
    await writeFile(file, 'x'.repeat(1000))
    // A different slice each time, so the loop brake (five identical calls in a row) stays out of it.
    server.setScenario([...Array.from({ length: 30 }, (_, index) => toolUseReply('Read', { file_path: file, limit: index + 1 })), textReply('All done.')])
    const { code, stdout } = await sous(['--output-format', 'json', '--max-turns', '40', 'Read it 30 times'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as { num_turns: number; usage: { cache_read_input_tokens: number } }
    expect(result.num_turns).toBe(31)
    expect(result.usage.cache_read_input_tokens).toBeGreaterThan(0)
    expect(server.failures).toEqual([])
  })

  it('stops at --max-turns with a non-zero exit', async () => {
    server.setScenario([toolUseReply('Read', { file_path: join(headless.project, 'nope.txt') }), textReply('unreachable')])
    const { code, stderr, stdout } = await sous(['--max-turns', '1', '--output-format', 'json', 'loop'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/max_turns/)
    expect(JSON.parse(stdout)).toMatchObject({ subtype: 'error_max_turns' })
  })

  it('sous-events streams one of Sous\'s events per line', async () => {
    server.setScenario([textReply('streamed')])
    const { code, stdout } = await sous(['--output-format', 'sous-events', 'hi'])
    expect(code).toBe(0)
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string })
    expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' })
    expect(lines.some((line) => line.type === 'text_delta')).toBe(true)
    expect(lines.at(-2)).toMatchObject({ type: 'turn_end', reason: 'completed' })
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'streamed' })
  })

  it('continues the latest session and resumes one by id', async () => {
    server.setScenario([textReply('first answer'), textReply('second answer'), textReply('third answer')])
    const first = JSON.parse((await sous(['--output-format', 'json', 'first question'])).stdout) as { session_id: string }
    const second = JSON.parse((await sous(['--continue', '--output-format', 'json', 'second question'])).stdout) as { session_id: string }
    expect(second.session_id).toBe(first.session_id)
    const sent = server.requests[1]!.body['messages'] as Message[]
    expect(JSON.stringify(sent)).toContain('first question')
    expect(JSON.stringify(sent)).toContain('first answer')
    const third = await sous(['--resume', first.session_id, 'third question'])
    expect(third.code).toBe(0)
    expect(server.requests[2]!.body['messages']).toHaveLength(5)
  })

  it('runs one writer per session: a second --resume of a running session gets a clear error and writes nothing', async () => {
    server.setScenario([textReply('first answer')])
    const first = JSON.parse((await sous(['--output-format', 'json', 'first question'])).stdout) as { session_id: string }
    let reached!: () => void
    let answer!: () => void
    const atServer = new Promise<void>((resolve) => (reached = resolve))
    const held = new Promise<void>((resolve) => (answer = resolve))
    server.setScenario([
      async () => {
        reached()
        await held
        return textReply('slow answer')
      },
      textReply('later answer'),
    ])
    const running = sous(['--resume', first.session_id, 'slow question'])
    await atServer
    const second = await sous(['--resume', first.session_id, 'racing question'])
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(/open in another Sous process/)
    answer()
    expect((await running).code).toBe(0)
    const { loadTranscript, transcriptPath } = await import('../main/store/transcript')
    const stored = await loadTranscript(transcriptPath(headless.home, headless.project, first.session_id))
    expect(JSON.stringify(stored?.messages)).not.toContain('racing question')
    expect(stored?.messages).toHaveLength(4)
    // Once the first run ended, the session is free again.
    expect((await sous(['--resume', first.session_id, 'next question'])).code).toBe(0)
  })

  it('takes the prompt from stdin', async () => {
    server.setScenario([textReply('got it')])
    const { code } = await sous([], 'question from a pipe')
    expect(code).toBe(0)
    expect(JSON.stringify(server.requests[0]!.body['messages'])).toContain('question from a pipe')
  })

  it('rejects bad usage with exit code 2', async () => {
    expect((await sous(['--output-format', 'yaml', 'hi'])).code).toBe(2)
    expect((await sous([])).code).toBe(2)
    const missing = await sous(['--resume', 'no-such-session', 'hi'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No session')
  })
})

describe('sous -p with session hooks', () => {
  async function hooks(config: unknown): Promise<void> {
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ hooks: config }))
  }
  const command = (script: string) => [{ hooks: [{ type: 'command', command: script }] }]

  it("treats the folder as trusted (its hooks run, as in Claude Code's -p) and says so with --verbose", async () => {
    await hooks({ SessionStart: command(`touch ${join(headless.project, 'started.marker')}`) })
    server.setScenario([textReply('Hi.')])
    const { code, stderr } = await sous(['--verbose', 'Hello'])
    expect(code).toBe(0)
    expect(stderr).toContain(`headless mode treats ${headless.project} as trusted`)
    const { existsSync } = await import('node:fs')
    expect(existsSync(join(headless.project, 'started.marker'))).toBe(true)
  })

  it('SessionStart and UserPromptSubmit hooks add context the model sees', async () => {
    await hooks({
      SessionStart: command(`echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"started-context"}}'`),
      UserPromptSubmit: command('echo prompt-context-$(cat | grep -c "Hello there")'),
    })
    server.setScenario([textReply('Hi.')])
    const { code } = await sous(['Hello there'])
    expect(code).toBe(0)
    const sent = JSON.stringify(server.requests[0]!.body['messages'])
    expect(sent).toContain('started-context')
    expect(sent).toContain('prompt-context-1')
  })

  it('a UserPromptSubmit hook that exits 2 drops the prompt before the model sees it', async () => {
    await hooks({ UserPromptSubmit: command('echo "no secrets please" >&2; exit 2') })
    server.setScenario([])
    const { code, stderr } = await sous(['Here is my password'])
    expect(code).toBe(1)
    expect(stderr).toContain('no secrets please')
    expect(server.requests).toHaveLength(0)
  })
})

describe('sous -p keeps secrets out of children', () => {
  it("a Bash command (sandboxed where it can be) and a hook see neither the API key nor what the user marked", async () => {
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(join(headless.home, 'settings.json'), JSON.stringify({ sous: { secretEnv: ['*_TOKEN'], passEnv: ['SHARED_TOKEN'] } }))
    const hookEnv = join(headless.project, 'hook-env.txt')
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `env > ${hookEnv}` }] }] } }))
    server.setScenario([toolUseReply('Bash', { command: 'env; echo "key=[$ANTHROPIC_API_KEY]"' }, { id: 'toolu_env' }), textReply('Printed.')])
    const secret = 'sk-ant-print-test-secret-value'
    // In this process's environment too, as in a real `sous -p` run.
    const saved = process.env.ANTHROPIC_API_KEY
    process.env.ANTHROPIC_API_KEY = secret
    const { code } = await sous(['--allowedTools', 'Bash', 'Print the environment'], undefined, {
      ANTHROPIC_API_KEY: secret,
      GITHUB_TOKEN: 'ghp-marked-secret',
      SHARED_TOKEN: 'shared-passed-through',
    }).finally(() => {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY
      else process.env.ANTHROPIC_API_KEY = saved
    })
    expect(code).toBe(0)
    const [result] = lastResults(1)
    const bash = JSON.stringify(result)
    expect(bash).toContain('key=[]')
    expect(bash).toContain('shared-passed-through')
    expect(bash).not.toContain(secret)
    expect(bash).not.toContain('ghp-marked-secret')
    const hook = await readFile(hookEnv, 'utf8')
    expect(hook).toContain('CLAUDE_PROJECT_DIR=')
    expect(hook).toContain('shared-passed-through')
    expect(hook).not.toContain(secret)
    expect(hook).not.toContain('ghp-marked-secret')
  })
})

describe('sous -p with tool hooks', () => {
  it('PostToolUse follows a call that worked, PostToolUseFailure one that failed', async () => {
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    const log = join(headless.project, 'hooks.log')
    const record = (event: string) => [{ matcher: 'Read', hooks: [{ type: 'command', command: `echo ${event} >> ${log}` }] }]
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PostToolUse: record('post'), PostToolUseFailure: record('failure') } }))
    await writeFile(join(headless.project, 'there.txt'), 'hello\n')
    server.setScenario([
      toolUseReply('Read', { file_path: join(headless.project, 'there.txt') }),
      toolUseReply('Read', { file_path: join(headless.project, 'missing.txt') }),
      textReply('Done.'),
    ])
    const { code } = await sous(['Read both'])
    expect(code).toBe(0)
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual(['post', 'failure'])
  })
})
