import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PlaceholderScope } from '../governance/sandbox/project-protection'
import { pinnedConfigText } from './git-config'
import { CheckpointRecorder } from './recorder'
import { planRestore } from './restore-plan'

// A command's sandbox stands an empty folder in for an absent ~/.gitconfig while it runs; git
// cannot read its configuration then. Snapshots taken meanwhile must still be recorded.
let root: string
let project: string
let home: string
let env: NodeJS.ProcessEnv

function git(args: string[], cwd = project): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } })
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-git-config-'))
  project = join(root, 'project')
  home = join(root, 'home')
  await mkdir(project)
  await mkdir(join(home, '.config', 'git'), { recursive: true })
  // The user's excludes are named by their configuration (not the default path): only a pin keeps them.
  await writeFile(join(home, 'ignore-these'), '*.secret\n')
  await writeFile(join(home, '.config', 'git', 'config'), `[core]\n\texcludesFile = ${join(home, 'ignore-these')}\n`)
  env = { PATH: process.env['PATH'], HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
  await writeFile(join(project, 'b.txt'), 'one\n')
  git(['init', '-q', '-b', 'main'])
  git(['add', '-A'])
  git(['commit', '-qm', 'start'])
})
afterEach(() => rm(root, { recursive: true, force: true }))

describe('git configuration of checkpoints', () => {
  it('records the tree a call left while a sandbox placeholder stands for ~/.gitconfig, honouring the user’s excludes', async () => {
    const recorder = new CheckpointRecorder({ home: join(home, '.sous'), sessionId: 's1', projectPath: project, env, transcriptPath: join(root, 'none.jsonl'), enabled: () => true, notice: () => undefined, watch: false })
    expect(await recorder.before({ toolUseId: 't1', name: 'Bash', agentId: 'main', summary: "Bash: sed -i 's/one/uno/' b.txt" })).toBeUndefined()
    const scope = new PlaceholderScope([root])
    expect(scope.hold(join(home, '.gitconfig'))).toBe(true)
    try {
      expect((await stat(join(home, '.gitconfig'))).isDirectory()).toBe(true)
      // Same size, as `sed -i 's/one/uno/'` leaves it.
      await writeFile(join(project, 'b.txt'), 'uno\n')
      await writeFile(join(project, 'token.secret'), 'never captured\n')
      await recorder.after('t1')
      expect(await recorder.before({ toolUseId: 't2', name: 'Bash', agentId: 'main', summary: 'Bash: true' })).toBeUndefined()
      await recorder.after('t2')
      await recorder.settled()
    } finally {
      scope.release()
    }
    const checkpoints = await recorder.journal.read()
    expect(checkpoints.map((checkpoint) => [checkpoint.before.kind, checkpoint.after?.kind])).toEqual([['git', 'git'], ['git', 'git']])
    const after = await recorder.workspace.entries(checkpoints[0]!.after!)
    expect([...after.entries.keys()]).toEqual(['b.txt'])
    const blob = await recorder.workspace.blobs('git', [after.entries.get('b.txt')!.id])
    expect(blob.contents.get(after.entries.get('b.txt')!.id)?.toString()).toBe('uno\n')
    const plan = await planRestore(recorder.workspace, checkpoints, 0)
    if ('error' in plan) throw new Error(plan.error)
    // The agent's own change, not someone else's.
    expect(plan.conflicts).toEqual([])
    expect(plan.changes.map((change) => change.path)).toEqual(['b.txt'])
    await recorder.close()
  })

  it('pins each entry of the user’s and system’s configuration as git reads it back, the repository’s left out', async () => {
    const listing = ['system', 'core.autocrlf\ninput', 'global', 'alias.q\necho "a\\b"\nnext', 'global', 'url.https://x.y/a.b.insteadof\ngh:', 'global', 'core.bare', 'global', 'safe.directory\n/one', 'global', 'safe.directory\n/two', 'local', 'core.filemode\nfalse', ''].join('\0')
    const file = join(root, 'pinned')
    await writeFile(file, pinnedConfigText(listing))
    const readBack = execFileSync('git', ['config', '-f', file, '--list', '--null'], { encoding: 'utf8' }).split('\0').filter(Boolean)
    expect(readBack).toEqual(['core.autocrlf\ninput', 'alias.q\necho "a\\b"\nnext', 'url.https://x.y/a.b.insteadof\ngh:', 'core.bare', 'safe.directory\n/one', 'safe.directory\n/two'])
    expect(await readFile(file, 'utf8')).not.toContain('filemode')
  })
})
