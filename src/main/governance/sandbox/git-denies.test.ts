import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxScratch } from '../../../../test/support/sandbox-scratch'
import { freshProjectEach } from '../../../../test/support/gate-sandbox'
import { BashSandbox } from './bash-sandbox'
import { gitWriteDenies } from './git-denies'

/**
 * Git's own files in the sandbox, with a real repository and real sandboxed runs: a commit works,
 * and nothing that makes the user's next `git` (outside the sandbox) run a program or look
 * elsewhere can be written — also when `.git` did not exist when the sandbox started.
 */

let base: string
let project: string
let sandbox: BashSandbox | undefined
let unavailable = ''

// The user's git as the sandbox's `home` sees it: that home's own config, no system config.
const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, HOME: join(base, 'home'), XDG_CONFIG_HOME: join(base, 'home', '.config'), GIT_CONFIG_NOSYSTEM: '1' } })
const run = async (command: string) => {
  if (!sandbox) throw new Error('no sandbox')
  return sandbox.run(command, { cwd: project })
}

beforeAll(async () => {
  // Outside the temp dirs on purpose: the sandbox makes them writable.
  base = sandboxScratch('.sous-git-denies-')
  project = join(base, 'project')
  mkdirSync(project)
  const started = await BashSandbox.start({ projectRoot: project, home: join(base, 'home') })
  if (started.ok) sandbox = started.sandbox
  else unavailable = started.reason
}, 60_000)

freshProjectEach(() => ({ base, project, sandbox }))

describe('gitWriteDenies', () => {
  it('denies .git itself while the folder is not a repository', () => {
    expect(gitWriteDenies(project)).toContain(join(project, '.git'))
  })

  it("lists a repository's control files, its hooks path and a worktree's pointer file", () => {
    git('init', '-q')
    git('config', 'core.hooksPath', 'tools/hooks')
    const denies = gitWriteDenies(project)
    for (const name of ['config', 'config.worktree', 'hooks', 'info', 'modules']) expect(denies).toContain(join(project, '.git', name))
    expect(denies).toContain(join(project, 'tools/hooks'))
    expect(denies).not.toContain(join(project, '.git'))
    rmSync(join(project, '.git'), { recursive: true, force: true })
    writeFileSync(join(project, '.git'), `gitdir: ${join(base, 'elsewhere.git')}\n`)
    expect(gitWriteDenies(project)).toEqual(expect.arrayContaining([join(project, '.git'), join(base, 'elsewhere.git', 'config')]))
    rmSync(join(project, '.git'))
  })
})

describe.runIf(process.platform === 'linux')('git files in the sandbox (real repository, real runs)', () => {
  it('lets a normal commit through', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    git('init', '-q')
    git('commit', '-q', '--allow-empty', '-m', 'first')
    const result = await run('echo hello > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.invalid commit -q -m second && git log --format=%s | cat')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.trim().split('\n')).toEqual(['second', 'first'])
    expect(result.stderr).not.toMatch(/warning|fatal/)
  })

  // A placeholder mount would break git (an empty commondir is fatal), so these are removed as they appear.
  it.for(['.git/commondir', '.git/objects/info/alternates'])('removes a %s the moment a command writes it, and reports it', async (file, ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    git('init', '-q')
    const result = await run(`echo /tmp/elsewhere > ${file}; sleep 1; test -e ${file} && echo still-there || echo gone`)
    expect(result.stdout.trim()).toBe('gone')
    expect(result.stderr).toContain(`${file} (removed`)
    expect(existsSync(join(project, file))).toBe(false)
    expect(git('status', '--short')).toBe('')
  })

  it.for([
    ['.git/config', 'the repository config (core.fsmonitor, core.pager…)'],
    ['.git/config.worktree', 'per-worktree config'],
    ['.git/hooks/pre-commit', 'a hook'],
    ['.git/info/attributes', 'attributes that pick drivers'],
    ['.git/modules/x/config', "a submodule's config"],
  ] as const)('refuses to write %s (%s)', async ([file], ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    git('init', '-q')
    const before = existsSync(join(project, file)) ? readFileSync(join(project, file), 'utf8') : undefined
    const result = await run(`mkdir -p "$(dirname ${file})" 2>/dev/null; echo planted > ${file}`)
    expect(result.exitCode).not.toBe(0)
    const after = existsSync(join(project, file)) ? readFileSync(join(project, file), 'utf8') : undefined
    expect(after).toBe(before)
  })

  it('refuses the configured hooks path', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    git('init', '-q')
    git('config', 'core.hooksPath', 'tools/hooks')
    mkdirSync(join(project, 'tools', 'hooks'), { recursive: true })
    const result = await run('echo planted > tools/hooks/pre-commit')
    expect(result.exitCode).not.toBe(0)
    expect(existsSync(join(project, 'tools', 'hooks', 'pre-commit'))).toBe(false)
    rmSync(join(project, 'tools'), { recursive: true, force: true })
  })

  // The hooks path as git itself reads it: the last value wins, comments and quotes are git's, an
  // included file counts, and so does the user's own config (a relative path there names a folder
  // of each repository). Each is tried with the folder absent too: `mkdir -p` must not get through.
  it.for([
    ['named twice (the last wins)', () => {
      git('config', '--add', 'core.hooksPath', 'decoy')
      git('config', '--add', 'core.hooksPath', 'tools/hooks')
    }],
    ['with a comment after it', () => {
      writeFileSync(join(project, '.git', 'config'), `${readFileSync(join(project, '.git', 'config'), 'utf8')}[core]\n\thooksPath = "tools/hooks" ; the team's hooks\n`)
    }],
    ['in a file the config includes', () => {
      writeFileSync(join(project, 'team.gitconfig'), '[core]\n\thooksPath = tools/hooks\n')
      git('config', 'include.path', '../team.gitconfig')
    }],
    ["in the user's own config", () => {
      mkdirSync(join(base, 'home'), { recursive: true })
      writeFileSync(join(base, 'home', '.gitconfig'), '[core]\n\thooksPath = tools/hooks\n')
    }],
  ] as const)('refuses the hooks path %s, also while its folder is absent', async ([, configure], ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    git('init', '-q')
    configure()
    try {
      expect(git('config', '--get', 'core.hooksPath').trim()).toBe('tools/hooks')
      const result = await run('mkdir -p tools/hooks; echo planted > tools/hooks/pre-commit')
      expect(result.exitCode).not.toBe(0)
      expect(existsSync(join(project, 'tools', 'hooks', 'pre-commit'))).toBe(false)
      // What stood in for the absent folder is gone with the command.
      expect(existsSync(join(project, 'tools'))).toBe(false)
    } finally {
      rmSync(join(base, 'home', '.gitconfig'), { force: true })
    }
  })

  it('refuses to rewrite a config file the repository includes', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    git('init', '-q')
    writeFileSync(join(project, 'team.gitconfig'), '[alias]\n\tst = status\n')
    git('config', 'include.path', '../team.gitconfig')
    const result = await run('printf "[core]\\n\\tfsmonitor = ./evil.sh\\n" > team.gitconfig')
    expect(result.exitCode).not.toBe(0)
    expect(readFileSync(join(project, 'team.gitconfig'), 'utf8')).toBe('[alias]\n\tst = status\n')
  })

  it('keeps a folder that is not a repository from becoming one, and follows it once it is', async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    const planted = await run('git init -q; mkdir -p .git/hooks && echo planted > .git/hooks/pre-commit')
    expect(planted.exitCode).not.toBe(0)
    expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false)
    // The user makes it a repository outside the sandbox: the next command is wrapped for that.
    rmSync(join(project, '.git'), { recursive: true, force: true })
    git('init', '-q')
    const commit = await run('git -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty -m works && echo ok')
    expect(commit.stdout.trim(), commit.stderr).toBe('ok')
  })

  it("refuses to rewrite a linked worktree's .git pointer", async (ctx) => {
    if (!sandbox) return ctx.skip(unavailable)
    writeFileSync(join(project, '.git'), `gitdir: ${join(base, 'main.git', 'worktrees', 'w')}\n`)
    const result = await run('echo "gitdir: /tmp/evil" > .git')
    expect(result.exitCode).not.toBe(0)
    expect(readFileSync(join(project, '.git'), 'utf8')).toContain('main.git')
    rmSync(join(project, '.git'))
  })
})
