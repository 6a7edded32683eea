import { mkdirSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NodePtyService } from '../pty/node-pty-service'
import { isAlive } from '../pty/process-tree'
import type { PtyProcess } from '../pty/types'
import { createBashTool } from './bash'
import { runToolCall } from './run-tool'
import { taskOutputTool } from './task-output'
import { taskStopTool } from './task-stop'
import { makeTestWorld } from '../../../test/support/tools'
import { resultText } from './result-text'
import type { ToolResult } from './types'

const textOf = (result: ToolResult): string => resultText(result.content)

describe('Bash', () => {
  let pty: NodePtyService
  let world: ReturnType<typeof makeTestWorld>
  let bash: ReturnType<typeof createBashTool>

  beforeEach(() => {
    pty = new NodePtyService({ killGraceMs: 300 })
    world = makeTestWorld()
    bash = createBashTool({ pty })
  })

  afterEach(async () => {
    await world.cleanup()
    await pty.dispose()
  })

  it('follows cd relative to the cwd even when the user has CDPATH set (governance assumes it)', async () => {
    const elsewhere = join(world.root, 'elsewhere')
    mkdirSync(join(elsewhere, 'sub'), { recursive: true })
    mkdirSync(join(world.project, 'sub'))
    const saved = process.env.CDPATH
    process.env.CDPATH = elsewhere
    try {
      const result = await runToolCall(bash, { command: 'cd sub && pwd -P' }, world.ctx())
      expect(textOf(result).trim().split('\n')[0]).toBe(realpathSync(join(world.project, 'sub')))
    } finally {
      if (saved === undefined) delete process.env.CDPATH
      else process.env.CDPATH = saved
    }
  })

  it('runs a command and returns its output, exit code 0', async () => {
    const result = await runToolCall(bash, { command: 'echo hi; printf "a\\tb\\n"' }, world.ctx())
    expect(result.isError).toBeFalsy()
    expect(textOf(result)).toBe('hi\na\tb')
    expect(result.details).toMatchObject({ exitCode: 0, command: 'echo hi; printf "a\\tb\\n"' })
  })

  it('ends on its end marker without waiting for the terminal to deliver a batch', async () => {
    // Output batches that never end within the test: only the marker's own delivery can end the run (the PTY's flushOn).
    const slow = new NodePtyService({ killGraceMs: 300, batchMs: 60_000 })
    try {
      const result = await runToolCall(createBashTool({ pty: slow }), { command: 'echo hi' }, world.ctx())
      expect(textOf(result)).toBe('hi')
      expect(result.details).toMatchObject({ exitCode: 0 })
    } finally {
      await slow.dispose()
    }
  })

  it('reports a failing exit code as an error with the output', async () => {
    const result = await runToolCall(bash, { command: 'echo oops >&2; exit 7' }, world.ctx())
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('Exit code 7')
    expect(textOf(result)).toContain('oops')
  })

  it('keeps the working directory between calls', async () => {
    mkdirSync(join(world.project, 'sub dir'))
    await runToolCall(bash, { command: 'cd "sub dir"' }, world.ctx())
    const result = await runToolCall(bash, { command: 'pwd -P' }, world.ctx())
    expect(textOf(result)).toBe(realpathSync(join(world.project, 'sub dir')))
    // A cd to a folder that then disappears leaves the last good one... and a failed cd changes nothing.
    await runToolCall(bash, { command: 'cd /nonexistent-dir-xyz' }, world.ctx())
    expect(textOf(await runToolCall(bash, { command: 'pwd -P' }, world.ctx()))).toBe(realpathSync(join(world.project, 'sub dir')))
  })

  it('sets a non-interactive environment and strips escape codes', async () => {
    const result = await runToolCall(bash, { command: 'echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $NO_COLOR $TERM"; printf "\\033[31mred\\033[0m\\n"; printf "10%%\\r50%%\\r100%%\\n"' }, world.ctx())
    expect(textOf(result)).toBe('cat cat 0 1 xterm-256color\nred\n100%')
  })

  it('keeps every byte of a large output that ends at exit, cutting the middle', async () => {
    const result = await runToolCall(bash, { command: 'seq 1 100000' }, world.ctx())
    const out = textOf(result)
    expect(out.startsWith('1\n2\n3\n')).toBe(true)
    expect(out).toContain('99999\n100000\n\n[The whole output')
    expect(out).toMatch(/\[[\d,]+ characters cut from the middle of the output\]/)
    expect(out.length).toBeLessThan(31_000)
  })

  it('bashOutputMaxChars sets what comes inline; the whole output is saved to a file the result names', async () => {
    const result = await runToolCall(bash, { command: 'seq 1 100000' }, world.ctx({ bashOutputMaxChars: () => 4_000 }))
    const out = textOf(result)
    expect(out.length).toBeLessThan(4_300)
    const file = /saved in (\S+);/.exec(out)?.[1]
    expect(file).toBe((result.details as { outputFile?: string }).outputFile)
    const { readFileSync } = await import('node:fs')
    const saved = readFileSync(file!, 'utf8')
    expect(saved.split('\n').slice(0, 3)).toEqual(['1', '2', '3'])
    expect(saved.trimEnd().split('\n')).toHaveLength(100_000)
    // Output that fits is inline only, with no file.
    const small = await runToolCall(bash, { command: 'seq 1 10' }, world.ctx({ bashOutputMaxChars: () => 4_000 }))
    expect(textOf(small)).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n10')
    expect((small.details as { outputFile?: string }).outputFile).toBeUndefined()
  })

  it('times out, kills the process group, and says so', async () => {
    const result = await runToolCall(bash, { command: 'sleep 1000 & echo "bg:$!"; sleep 1000', timeout: 1500 }, world.ctx())
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain('timed out after 1500 ms')
    const bg = Number(/bg:(\d+)/.exec(textOf(result))![1])
    await pty.dispose()
    expect(isAlive(bg)).toBe(false)
  })

  it('stops on abort', async () => {
    const controller = new AbortController()
    const running = runToolCall(bash, { command: 'echo started; sleep 1000' }, world.ctx({ signal: controller.signal }))
    setTimeout(() => controller.abort(), 300)
    const result = await running
    expect(result.isError).toBe(true)
    await pty.dispose()
    expect(pty.list()).toEqual([])
  })

  it('exposes the PTY so input typed into it reaches a waiting command', async () => {
    let seen: { proc: PtyProcess; command: string } | undefined
    const ctx = world.ctx({
      onPtySpawn(proc, command) {
        seen = { proc, command }
        proc.onData((data) => {
          if (data.includes('[y/N]')) proc.write('y\r')
        })
      },
    })
    const result = await runToolCall(bash, { command: 'read -p "Proceed? [y/N] " a; echo "answer=$a"' }, ctx)
    expect(seen?.command).toContain('read -p')
    expect(textOf(result)).toContain('answer=y')
    expect(result.details).toMatchObject({ ptyId: seen!.proc.id })
  })

  it('runs in the background, reads output incrementally and stops', async () => {
    const started = await runToolCall(bash, { command: 'echo one; read -r _; echo two; sleep 1000', run_in_background: true }, world.ctx())
    expect(textOf(started)).toContain('bash_1')
    const shell = world.session.shell.background.get('bash_1')!
    const first = await runToolCall(taskOutputTool, { task_id: 'bash_1', block: true, timeout: 1000 }, world.ctx())
    expect(textOf(first)).toContain('<status>running</status>')
    expect(textOf(first)).toContain('one')
    shell.run.proc.write('\r')
    await new Promise<void>((resolve) => {
      const off = shell.run.onOutput((raw) => raw.includes('two') && (off(), resolve()))
    })
    const second = await runToolCall(taskOutputTool, { task_id: 'bash_1', block: false }, world.ctx())
    expect(textOf(second)).toContain('two')
    expect(textOf(second)).not.toContain('one')
    const stopped = await runToolCall(taskStopTool, { task_id: 'bash_1' }, world.ctx())
    expect(textOf(stopped)).toContain('stopped')
    const after = await runToolCall(taskOutputTool, { task_id: 'bash_1', block: false }, world.ctx())
    expect(textOf(after)).toContain('<status>killed</status>')
  })

  it('reports a finished background command with its exit code', async () => {
    await runToolCall(bash, { command: 'echo done; exit 3', run_in_background: true }, world.ctx())
    const out = await runToolCall(taskOutputTool, { task_id: 'bash_1' }, world.ctx())
    expect(textOf(out)).toContain('failed (exit code 3)')
    expect(textOf(out)).toContain('done')
    expect((await runToolCall(taskOutputTool, { task_id: 'bash_9' }, world.ctx())).isError).toBe(true)
  })

  it('leaves nothing running when the session ends', async () => {
    await runToolCall(bash, { command: 'sleep 1000 & echo "bg:$!"; sleep 1000', run_in_background: true }, world.ctx())
    const shell = world.session.shell.background.get('bash_1')!
    const bgPid = await new Promise<number>((resolve) => {
      let text = ''
      shell.run.onOutput((raw) => {
        text += raw
        const match = /bg:(\d+)/.exec(text)
        if (match) resolve(Number(match[1]))
      })
    })
    await world.session.dispose()
    await pty.dispose()
    expect(isAlive(bgPid)).toBe(false)
    expect(isAlive(shell.run.proc.pid)).toBe(false)
  })

  it('is neither read-only nor concurrency-safe without a classifier, and uses one when given', () => {
    expect(bash.isReadOnly({ command: 'ls' })).toBe(false)
    expect(bash.isConcurrencySafe({ command: 'ls' })).toBe(false)
    const classified = createBashTool({ pty, classify: (command) => ({ readOnly: command === 'ls', concurrencySafe: command === 'ls' }) })
    expect(classified.isReadOnly({ command: 'ls' })).toBe(true)
    expect(classified.isReadOnly({ command: 'rm x' })).toBe(false)
  })
})
