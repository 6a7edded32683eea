/**
 * Git with a repository that is untrusted input. Git runs programs its configuration names (a
 * `core.fsmonitor` hook on `git status`, a clean filter for files an attribute marks, an external
 * diff, `gpg.program` for signed commits in `git log`), and that configuration can come with the
 * repository: an archive with a planted `.git/config`, or a committed folder laid out as a git
 * directory that git uses when a command runs inside it. Two defences, used by Sous's own start-up
 * `git status` and by the agent's read-only git commands:
 * - {@link safeGitEnvironment}: keys set on git's command-line scope (`GIT_CONFIG_COUNT`, which
 *   outranks every file) that switch off what can be switched off by name;
 * - {@link unsafeKeys}: the repository's own keys (local and worktree scopes) that are not on an
 *   allowlist of keys that name no program; any other key means git is not run without asking.
 */

/** Keys set for every unreviewed git run, with the value that makes each harmless. */
export const NEUTRALISED_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  // `git status` would run it to list changed files.
  ['core.fsmonitor', 'false'],
  // No hook runs (none should on a read-only command; this makes sure).
  ['core.hooksPath', '/dev/null'],
  // A folder laid out as a git directory is used only when named (`--git-dir`), never by walking into it.
  ['safe.bareRepository', 'explicit'],
  ['core.sshCommand', 'false'],
  // `git log` would verify signatures with `gpg.program`.
  ['log.showSignature', 'false'],
]

/** Variables that keep git from paging, prompting or opening an editor (their programs would come from configuration otherwise). */
const QUIET_GIT: Record<string, string> = { GIT_PAGER: 'cat', GIT_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'false', SSH_ASKPASS: 'false' }

/**
 * The variables to add to `env` so a git run obeys {@link NEUTRALISED_GIT_CONFIG}: numbered after
 * any `GIT_CONFIG_COUNT` the environment already has (a value of its own is kept, ours come after
 * and win). Contract: pure; never throws.
 */
export function safeGitEnvironment(env: Record<string, string | undefined> = {}): Record<string, string> {
  const parsed = Number.parseInt(env.GIT_CONFIG_COUNT ?? '', 10)
  const start = Number.isFinite(parsed) && parsed >= 0 ? parsed : 0
  const out: Record<string, string> = { ...QUIET_GIT }
  NEUTRALISED_GIT_CONFIG.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${start + i}`] = key
    out[`GIT_CONFIG_VALUE_${start + i}`] = value
  })
  out.GIT_CONFIG_COUNT = String(start + NEUTRALISED_GIT_CONFIG.length)
  return out
}

/**
 * Keys a repository's own configuration may hold for git to run without asking: none of them names
 * a program or a file git would run. Anything else (filters, diff and merge drivers, includes,
 * `core.worktree`, credential helpers…) means the run is skipped or asked about.
 */
export const SAFE_KEYS: readonly RegExp[] = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|quotepath|checkstat|trustctime)$/,
  /^remote\..+\.(url|pushurl|fetch|push|tagopt|prune|mirror|promisor|partialclonefilter)$/,
  /^branch\..+\.(remote|merge|rebase|pushremote|description)$/,
  /^user\.(name|email)$/,
  /^extensions\.(worktreeconfig|objectformat)$/,
  /^(pull\.(rebase|ff)|push\.(default|autosetupremote)|init\.defaultbranch|fetch\.prune|gc\.auto|lfs\.repositoryformatversion)$/,
  /^submodule\..+\.(url|active)$/,
]

/**
 * Keys that are harmless once {@link safeGitEnvironment} is in force (it overrides them), or that
 * only change what git prints: the agent's read-only git may meet them. (An alias cannot replace a
 * built-in command, and only built-ins are read-only.)
 */
export const SAFE_WITH_ENVIRONMENT: readonly RegExp[] = [
  /^core\.(fsmonitor|hookspath|sshcommand|pager|editor|untrackedcache|preloadindex|abbrev|whitespace|commentchar|commentstring|splitindex|multipackindex|commitgraph)$/,
  /^(sequence\.editor|log\.showsignature|pager\..+)$/,
  /^(color|alias|status|column|advice|rerere|gc|pack|index|feature|maintenance)\.[^.]+$/,
  /^color\..+$/,
  /^(log\.(date|decorate|abbrevcommit|follow|showroot|mailmap)|diff\.(renames|algorithm|mnemonicprefix|noprefix|context|interhunkcontext|colormoved|colormovedws|relative|statgraphwidth|submodule|ignoresubmodules|indentheuristic|suppressblankempty|wserrorhighlight))$/,
  /^(commit\.gpgsign|tag\.gpgsign|merge\.(conflictstyle|ff|log|renames)|rebase\.(autostash|autosquash|updaterefs)|fetch\.(recursesubmodules|writecommitgraph))$/,
]

/**
 * The repository's own keys (local and worktree scopes) that are on neither allowlist in use,
 * from `git config --list --show-scope --null`. The user's own configuration (global, system,
 * command line) is theirs and trusted.
 */
export function unsafeKeys(listing: string, allowed: readonly RegExp[] = SAFE_KEYS): string[] {
  const keys: string[] = []
  // `--show-scope --null`: "<scope>\0<key>\n<value>\0" per entry (a key without a value has no newline).
  const fields = listing.split('\0')
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const scope = fields[index]!
    const key = fields[index + 1]!.split('\n')[0]!.toLowerCase()
    if (scope !== 'local' && scope !== 'worktree') continue
    if (!allowed.some((pattern) => pattern.test(key))) keys.push(key)
  }
  return [...new Set(keys)]
}
