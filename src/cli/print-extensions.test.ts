import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message, TextBlock, ToolResultBlock } from '../main/services/model/types'

// Skills and custom slash commands from real folders, through `sous -p` and the scripted model.
const server = useModelServer()

const headless = useHeadless(server, { sousHome: (home) => join(home, '.sous'), inheritPath: true })
const sous = (args: string[]) => headless.sous(args)

async function file(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

const messagesOf = (index: number) => server.requests[index]!.body['messages'] as Message[]
const systemOf = (index: number) => (server.requests[index]!.body['system'] as TextBlock[]).map((block) => block.text).join('\n')
const results = (index: number) => messagesOf(index).at(-1)!.content as ToolResultBlock[]
const text = (block: ToolResultBlock) => (typeof block.content === 'string' ? block.content : block.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
const firstPrompt = () => JSON.stringify(messagesOf(0)[0])

describe('sous -p with skills', () => {
  it('lists skills in the system prompt, loads one on demand, grants its allowed-tools for the turn and opens its folder', async () => {
    const userSkill = join(headless.home, '.claude', 'skills', 'greet')
    await file(join(userSkill, 'SKILL.md'), '---\ndescription: Greets someone by name\nallowed-tools: Bash(echo *)\n---\nSay hello to $0 warmly. See reference.md in ${CLAUDE_SKILL_DIR}.')
    await file(join(userSkill, 'reference.md'), 'Greetings reference.')
    await file(join(headless.project, '.claude', 'skills', 'secret', 'SKILL.md'), '---\ndescription: Only for people\ndisable-model-invocation: true\n---\nDo the secret thing.')
    await file(join(headless.project, '.claude', 'skills', 'broken', 'SKILL.md'), '---\ndescription: "unclosed\n---\nBody')
    server.setScenario([
      toolUseReply('Skill', { skill: 'greet', args: 'Ada' }, { id: 'toolu_skill' }),
      toolUseReply('Bash', { command: 'echo hello Ada' }, { id: 'toolu_echo' }),
      toolUseReply('Read', { file_path: join(userSkill, 'reference.md') }, { id: 'toolu_ref' }),
      toolUseReply('Skill', { skill: 'secret' }, { id: 'toolu_secret' }),
      toolUseReply('Skill', { skill: 'greet', args: 'Ada' }, { id: 'toolu_again' }),
      textReply('Greeted.'),
    ])
    const { code, stdout } = await sous(['--output-format', 'sous-events', 'Greet Ada'])
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    const system = systemOf(0)
    expect(system).toContain('# Skills')
    expect(system).toContain('- greet: Greets someone by name')
    expect(system).not.toContain('- secret')
    expect(text(results(1)[0]!)).toContain('Say hello to Ada warmly. See reference.md in ')
    expect(text(results(2)[0]!)).toContain('hello Ada')
    expect(results(2)[0]!.is_error).toBeUndefined()
    expect(text(results(3)[0]!)).toContain('Greetings reference.')
    expect(results(4)[0]).toMatchObject({ is_error: true })
    expect(text(results(4)[0]!)).toMatch(/runs only when the user types \/secret/)
    expect(text(results(5)[0]!)).toMatch(/already loaded/)
    // The malformed skill is reported, never fatal.
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning', message: expect.stringMatching(/broken\/SKILL\.md: invalid YAML frontmatter/) }))
  })

  it('ends the skill grant with the turn: the next prompt is back to the rules', async () => {
    await file(join(headless.project, '.claude', 'skills', 'touchy', 'SKILL.md'), '---\ndescription: Touches files\nallowed-tools: Bash(touch *)\n---\nTouch what is asked.')
    server.setScenario([toolUseReply('Skill', { skill: 'touchy' }), toolUseReply('Bash', { command: 'touch one.txt' }), textReply('Touched.')])
    const first = JSON.parse((await sous(['--output-format', 'json', 'Touch one'])).stdout) as { session_id: string; permission_denials: unknown[] }
    expect(first.permission_denials).toEqual([])
    expect(existsSync(join(headless.project, 'one.txt'))).toBe(true)
    server.setScenario([toolUseReply('Bash', { command: 'touch two.txt' }, { id: 'toolu_two' }), textReply('Could not.')])
    const second = JSON.parse((await sous(['--resume', first.session_id, '--output-format', 'json', 'Touch two'])).stdout) as { permission_denials: Array<{ tool_use_id: string }> }
    expect(second.permission_denials.map((denial) => denial.tool_use_id)).toEqual(['toolu_two'])
    expect(existsSync(join(headless.project, 'two.txt'))).toBe(false)
  })
})

describe('sous -p with custom slash commands', () => {
  it('expands /name: arguments, injected commands through the permission check, @ includes, allowed-tools and model', async () => {
    await file(join(headless.project, 'notes.md'), 'Remember the tests.')
    await file(
      join(headless.project, '.claude', 'commands', 'review.md'),
      '---\ndescription: Review a file\nargument-hint: [file] [focus]\nallowed-tools: Bash(echo *)\nmodel: claude-haiku-4-5\n---\nReview $0 (focus: $1).\nBranch: !`echo main-branch`\nNotes: @notes.md',
    )
    server.setScenario([textReply('Reviewed.')])
    const { code } = await sous(['/review src/app.ts "error handling"'])
    expect(code).toBe(0)
    const sent = firstPrompt()
    expect(sent).toContain('<command-name>/review</command-name>')
    expect(sent).toContain('Review src/app.ts (focus: error handling).')
    expect(sent).toContain('Branch: main-branch')
    expect(sent).toContain('Remember the tests.')
    expect(server.requests[0]!.body['model']).toBe('claude-haiku-4-5')
  })

  it('refuses a command whose injected line is not allowed, before the model is asked', async () => {
    await file(join(headless.project, '.claude', 'commands', 'wipe.md'), 'Cleanup: !`touch made-by-injection.txt`')
    server.setScenario([])
    const { code, stderr, stdout } = await sous(['--output-format', 'json', '/wipe'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^sous: command_failed: Shell command permission check failed for pattern "!`touch made-by-injection\.txt`"/)
    expect(JSON.parse(stdout)).toMatchObject({ is_error: true, terminal_reason: 'command_failed' })
    expect(server.requests).toHaveLength(0)
    expect(existsSync(join(headless.project, 'made-by-injection.txt'))).toBe(false)
  })

  it('aborts on a failing injected command, and leaves unknown /words as plain text', async () => {
    await file(join(headless.project, '.claude', 'commands', 'check.md'), '---\nallowed-tools: Bash(ls *)\n---\nFiles: !`ls does-not-exist`')
    const failed = await sous(['/check'])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/Shell command failed for pattern "!`ls does-not-exist`": Exit code 2/)
    server.setScenario([textReply('It is a folder.')])
    const plain = await sous(['/usr/local is what?'])
    expect(plain.code).toBe(0)
    expect(firstPrompt()).toContain('/usr/local is what?')
    expect(await readFile(join(headless.project, '.claude', 'commands', 'check.md'), 'utf8')).toContain('ls does-not-exist')
  })
})
