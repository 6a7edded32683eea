import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxScratch } from '../../../../test/support/sandbox-scratch'
import { freshProjectEach } from '../../../../test/support/gate-sandbox'
import { isUnder } from '../paths/place'
import { BashSandbox } from './bash-sandbox'

/**
 * What sandbox-runtime's mandatory denies protect in its process's working directory (its
 * dangerous files, `.vscode`, `.idea`, `.claude/commands`, `.claude/agents`, and each repository's
 * hooks and config, nested ones to its search depth) must hold in a project that is not that
 * directory: Sous's process runs in `/`, in a home folder, or serves several projects. Real runs,
 * with the process's working directory outside the project.
 */

let base: string
let project: string
let sandbox: BashSandbox | undefined
let unavailable = ''

const run = async (command: string) => {
  if (!sandbox) throw new Error('no sandbox')
  return sandbox.run(command, { cwd: project })
}

beforeAll(async () => {
  base = sandboxScratch('.sous-library-denies-')
  project = join(base, 'project')
  mkdirSync(project)
  const started = await BashSandbox.start({ projectRoot: project, home: join(base, 'home') })
  if (started.ok) sandbox = started.sandbox
  else unavailable = started.reason
}, 60_000)

freshProjectEach(() => ({ base, project, sandbox }))

/** Each path (relative to the project) that a sandboxed write must not create or change. */
async function expectRefused(paths: string[]): Promise<void> {
  for (const path of paths) {
    const full = join(project, path)
    const before = existsSync(full) ? readFileSync(full, 'utf8') : undefined
    const result = await run(`mkdir -p '${dirname(full)}' 2>/dev/null; printf 'echo owned' > '${full}'`)
    const after = existsSync(full) && !isDirectory(full) ? readFileSync(full, 'utf8') : undefined
    expect({ path, exitCode: result.exitCode === 0 ? 0 : 'refused', content: after }).toEqual({ path, exitCode: 'refused', content: before })
  }
}

function isDirectory(path: string): boolean {
  try {
    readFileSync(path)
    return false
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EISDIR'
  }
}

describe.runIf(process.platform === 'linux')('the library\'s mandatory denies in a project that is not the working directory', () => {
  it('the process does not run in the project', () => {
    expect(isUnder(process.cwd(), project)).toBe(false)
  })

  it("refuses writes to a nested repository's hooks and config", async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    execFileSync('git', ['init', '-q', join(project, 'sub')])
    // Two levels down, as the library finds from one level below the root (where a process may run).
    execFileSync('git', ['init', '-q', join(project, 'packages/one')])
    await expectRefused(['sub/.git/hooks/pre-commit', 'sub/.git/config', 'packages/one/.git/hooks/post-checkout', 'packages/one/.git/config'])
    // The repository itself stays usable.
    expect((await run('echo x > sub/file.txt && cat sub/file.txt')).stdout.trim()).toBe('x')
  })

  it('holds with the process in / (the desktop app started from a launcher)', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    execFileSync('git', ['init', '-q', join(project, 'sub')])
    const previous = process.cwd()
    process.chdir('/')
    try {
      await expectRefused(['sub/.git/hooks/pre-commit', '.vscode/settings.json', '.mcp.json'])
    } finally {
      process.chdir(previous)
    }
  })

  it('refuses creating the editor and agent folders at the root and one level down', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    mkdirSync(join(project, 'sub'))
    mkdirSync(join(project, 'sub/.vscode'))
    mkdirSync(join(project, 'sub/.claude/commands'), { recursive: true })
    await expectRefused(['.vscode/settings.json', '.idea/workspace.xml', '.claude/commands/x.md', '.claude/agents/x.md', 'sub/.vscode/tasks.json', 'sub/.claude/commands/x.md'])
  })

  it('refuses creating the start-up files at the root, and changing nested ones', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    mkdirSync(join(project, 'a/b'), { recursive: true })
    for (const path of ['a/.mcp.json', 'a/b/.bashrc', 'a/.gitmodules']) writeFileSync(join(project, path), 'mine\n')
    await expectRefused(['.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.gitconfig', '.gitmodules', '.ripgreprc', '.mcp.json', 'a/.mcp.json', 'a/b/.bashrc', 'a/.gitmodules'])
  })
})
