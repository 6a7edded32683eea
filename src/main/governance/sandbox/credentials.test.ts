import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectDataDir } from '../../base/paths'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { sandboxOptionsFor, startBashSandbox } from '../gate/gate-sandbox'
import { loadSettings } from '../settings/load'
import { BashSandbox } from './bash-sandbox'

/**
 * Credential files and every project's data in the Sous home are not readable in the sandbox by
 * default (issue 25, point 8); `sandbox.filesystem.allowRead` in the user's settings re-opens one,
 * and a project's own settings cannot. Started from settings as the host starts it; real bubblewrap.
 */

const base = sandboxScratch('.sous-credentials-')
const home = join(base, 'home')
const sousHome = join(base, 'sous-home')
const project = join(base, 'project')
const secrets: Record<string, string> = {
  [join(home, '.claude.json')]: '{"oauthAccount":"secret"}',
  [join(home, '.git-credentials')]: 'https://user:token@example.invalid',
  [join(home, '.npmrc')]: '//registry.example.invalid/:_authToken=secret',
  [join(home, '.netrc')]: 'machine example.invalid login u password p',
  [join(home, '.ssh', 'id_ed25519')]: 'PRIVATE KEY',
  [join(home, '.aws', 'credentials')]: '[default]\naws_secret_access_key=secret',
  [join(sousHome, 'credentials', 'anthropic-api-key.bin')]: 'sk-ant-secret',
  [join(projectDataDir(sousHome, join(base, 'other')), 'transcripts', 's.jsonl')]: '{"secret":"other project"}',
  [join(projectDataDir(sousHome, project), 'transcripts', 's.jsonl')]: '{"secret":"this project"}',
}
for (const [path, text] of Object.entries(secrets)) {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}
const ownResult = join(projectDataDir(sousHome, project), 'tool-results', 's1', 'big.txt')
mkdirSync(join(ownResult, '..'), { recursive: true })
writeFileSync(ownResult, 'saved result')
mkdirSync(join(project, '.claude'), { recursive: true })
// The project asks to read the key; it is not trusted, so that is ignored.
writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ sandbox: { filesystem: { allowRead: ['~/.git-credentials'] } } }))
writeFileSync(join(sousHome, 'settings.json'), JSON.stringify({ sandbox: { filesystem: { allowRead: ['~/.npmrc'] } } }))

const load = () => loadSettings(project, { sousHome, home, managedPath: join(base, 'managed.json') }).settings
const started = await startBashSandbox(load(), { projectRoot: project, sousHome, home })
const unavailable = sandboxPlatformProblem() ?? (started?.state.available === false ? started.state.reason : started ? undefined : 'the sandbox is off')
const sandbox = (started?.state.available ? started.state.sandbox : undefined) as BashSandbox

afterAll(async () => {
  await started?.dispose()
  rmSync(base, { recursive: true, force: true })
})

describe('credentials in the sandbox', () => {
  it('takes allowRead from the user, not from an untrusted project', () => {
    const settings = load()
    expect(settings.sandbox.allowRead).toEqual([join(home, '.npmrc')])
    expect(settings.trust.ignored.join('\n')).toContain('sandbox allowRead ~/.git-credentials')
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('cannot read credential files or any project’s transcripts', unavailable), async () => {
    for (const [path, text] of Object.entries(secrets)) {
      if (path === join(home, '.npmrc')) continue
      const r = await sandbox.run(`cat '${path}'`, { cwd: project })
      expect(r.stdout, path).not.toContain(text)
    }
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('reads what allowRead re-opens and the session’s own saved results', unavailable), async () => {
    const npmrc = await sandbox.run(`cat '${join(home, '.npmrc')}'`, { cwd: project })
    expect(npmrc.stdout).toContain('_authToken')
    const own = await sandbox.run(`cat '${ownResult}'`, { cwd: project })
    expect(own.stdout).toContain('saved result')
    // Without the setting the file is hidden like the others.
    const strict = BashSandbox.forProject({ ...sandboxOptionsFor({ ...load(), sandbox: { ...load().sandbox, allowRead: [] } }, { projectRoot: project, sousHome, home }) })
    const hidden = await strict.run(`cat '${join(home, '.npmrc')}'`, { cwd: project })
    expect(hidden.stdout).not.toContain('_authToken')
  })
})
