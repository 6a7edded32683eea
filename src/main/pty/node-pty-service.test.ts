import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NodePtyService } from './node-pty-service'
import { isAlive } from './process-tree'
import type { PtyProcess } from './types'

/** Collects output and resolves when it matches. */
function collector(proc: PtyProcess) {
  let text = ''
  let chunks = 0
  const waiters: Array<{ test: (text: string) => boolean; resolve: () => void }> = []
  proc.onData((data) => {
    text += data
    chunks++
    for (const waiter of [...waiters]) {
      if (waiter.test(text)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  })
  return {
    get text() {
      return text
    },
    get chunks() {
      return chunks
    },
    until(test: RegExp | ((text: string) => boolean)): Promise<void> {
      const fn = typeof test === 'function' ? test : (t: string) => test.test(t)
      if (fn(text)) return Promise.resolve()
      return new Promise((resolve) => waiters.push({ test: fn, resolve }))
    },
  }
}

function exitOf(proc: PtyProcess): Promise<{ exitCode: number; signal?: number }> {
  return new Promise((resolve) => proc.onExit(resolve))
}

/** Polls (no fixed sleeps) until `check` holds or the deadline passes. */
async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return check()
}

describe('NodePtyService', () => {
  let service: NodePtyService
  let dir: string

  beforeEach(() => {
    service = new NodePtyService({ killGraceMs: 500 })
    dir = mkdtempSync(join(tmpdir(), 'sous-pty-'))
  })

  afterEach(async () => {
    await service.dispose()
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs a command in cwd with env and reports its output and exit code', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['-c', 'echo hi; echo "$FOO $TERM"; pwd; echo END; read -r _; exit 3'], cwd: dir, env: { FOO: 'bar' } })
    expect(proc.id).toMatch(/^pty_\d+$/)
    expect(service.get(proc.id)).toBe(proc)
    const out = collector(proc)
    // Read the output while the program still runs: node-pty may drop the last bytes at exit.
    await out.until(/END/)
    proc.write('\r')
    const exit = await exitOf(proc)
    expect(exit.exitCode).toBe(3)
    expect(out.text).toContain('hi\r\n')
    expect(out.text).toContain('bar xterm-256color')
    expect(out.text).toContain(dir)
    expect(service.list()).not.toContain(proc)
  })

  it('uses the default shell when no program is given', async () => {
    const proc = service.spawn({ cwd: dir, env: { SHELL: '/bin/bash', PS1: '$ ', HOME: dir } })
    const out = collector(proc)
    await out.until((text) => text.length > 0)
    proc.write('echo "shell:$0"\r')
    await out.until(/shell:\S*bash/)
    proc.write('exit\r')
    await exitOf(proc)
  })

  it('resizes the terminal', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['--norc', '--noprofile', '-i'], cwd: dir, cols: 80, rows: 24, env: { PS1: '$ ' } })
    const out = collector(proc)
    await out.until(/\$ $/)
    proc.write('stty size\r')
    await out.until(/24 80/)
    proc.resize(120, 40)
    proc.write('stty size\r')
    await out.until(/40 120/)
  })

  it('delivers written input to a waiting command', async () => {
    const proc = service.spawn({
      file: '/bin/bash',
      args: ['-c', 'read -p "Continue? [y/N] " answer; echo "got:$answer"'],
      cwd: dir,
    })
    const out = collector(proc)
    await out.until(/Continue\? \[y\/N\]/)
    proc.write('y\r')
    await out.until(/got:y/)
    expect((await exitOf(proc)).exitCode).toBe(0)
  })

  it('batches output into few data events', async () => {
    // `read` keeps the terminal open until we have seen the end (see the class's known limit).
    const proc = service.spawn({ file: '/bin/bash', args: ['-c', 'for i in $(seq 1 2000); do echo line$i; done; read -r _'], cwd: dir })
    const out = collector(proc)
    await out.until(/line2000\r\n/)
    proc.write('\r')
    await exitOf(proc)
    // 2000 echo calls arrive as far fewer events than lines.
    expect(out.chunks).toBeLessThan(500)
  })

  it('delivers output at once from the moment flushOn arrives, even split across reads', async () => {
    // A batch that never ends within the test: only flushOn can deliver before the exit.
    const slow = new NodePtyService({ batchMs: 60_000 })
    const script = "printf before; sleep 0.3; printf MA; sleep 0.3; printf 'RK after'; exec sleep 30"
    const marked = slow.spawn({ file: '/bin/bash', args: ['-c', script], cwd: dir, flushOn: 'MARK' })
    const unmarked = slow.spawn({ file: '/bin/bash', args: ['-c', script], cwd: dir })
    const out = collector(marked)
    const control = collector(unmarked)
    try {
      await out.until(/MARK after/)
      // What came before the marker was batched with it; without flushOn nothing has been delivered yet.
      expect(out.text).toBe('beforeMARK after')
      expect(out.chunks).toBe(1)
      expect(control.chunks).toBe(0)
    } finally {
      await slow.dispose()
    }
  })

  it('pauses above the high-water mark and resumes after acks', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['-c', 'yes | head -c 1000000; echo; echo DONE; read -r _'], cwd: dir, flowControl: true })
    const out = collector(proc)
    // Without acks, output stops shortly after 100k characters (plus what was in flight).
    await out.until((text) => text.length > 100_000)
    // Wait for a stall: the length stops growing for a while (the PTY is paused).
    let last = -1
    await eventually(() => {
      const stalled = out.text.length === last
      last = out.text.length
      return stalled
    })
    expect(out.text.length).toBeLessThan(400_000)
    expect(out.text).not.toContain('DONE')
    // Acknowledge as output arrives: it runs to the end.
    proc.ack(out.text.length)
    proc.onData((data) => proc.ack(data.length))
    await out.until(/DONE/)
    expect(out.text.replace(/\r\n/g, '\n').length).toBeGreaterThanOrEqual(1_000_000)
  })

  it('does not pause when flow control is off', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['-c', 'yes | head -c 500000; echo; echo DONE; read -r _'], cwd: dir, flowControl: false })
    const out = collector(proc)
    await out.until(/DONE/)
    expect(out.text.length).toBeGreaterThan(500_000)
  })

  it('kills the whole process group, grandchildren included', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['-c', 'sleep 1000 & echo "bg:$!"; sleep 1000'], cwd: dir })
    const out = collector(proc)
    await out.until(/bg:\d+/)
    const grandchild = Number(/bg:(\d+)/.exec(out.text)![1])
    expect(isAlive(grandchild)).toBe(true)
    const exited = exitOf(proc)
    proc.kill()
    await exited
    expect(await eventually(() => !isAlive(grandchild))).toBe(true)
    expect(isAlive(proc.pid)).toBe(false)
  })

  it('kills background jobs that job control put in their own group', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['--norc', '--noprofile', '-i'], cwd: dir, env: { PS1: '$ ' } })
    const out = collector(proc)
    await out.until(/\$ $/)
    proc.write('trap "" HUP; sleep 1000 & echo "job:$!"\r')
    await out.until(/job:\d+/)
    const job = Number(/job:(\d+)/.exec(out.text)![1])
    const exited = exitOf(proc)
    proc.kill()
    await exited
    expect(await eventually(() => !isAlive(job))).toBe(true)
  })

  it('escalates to SIGKILL when SIGHUP is ignored', async () => {
    const proc = service.spawn({ file: '/bin/bash', args: ['-c', 'trap "" HUP; echo ready; while :; do sleep 0.1; done'], cwd: dir })
    const out = collector(proc)
    await out.until(/ready/)
    const exited = exitOf(proc)
    proc.kill()
    expect((await exited).signal).toBe(9)
  })

  it('dispose kills every PTY and leaves nothing running', async () => {
    const procs = [1, 2, 3].map(() => service.spawn({ file: '/bin/bash', args: ['-c', 'sleep 1000 & echo "bg:$!"; sleep 1000'], cwd: dir }))
    const outs = procs.map(collector)
    await Promise.all(outs.map((out) => out.until(/bg:\d+/)))
    const pids = [...procs.map((p) => p.pid), ...outs.map((out) => Number(/bg:(\d+)/.exec(out.text)![1]))]
    await service.dispose()
    expect(service.list()).toEqual([])
    expect(await eventually(() => pids.every((pid) => !isAlive(pid)))).toBe(true)
  })
})
