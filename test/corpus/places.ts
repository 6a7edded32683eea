import { bash, corpusClass, tool } from './cases'

/**
 * Issue 10 items 3 and 4: where a path really is. Tilde forms are expanded as bash does or are
 * unknown (never project-relative); a cd the analysis cannot follow asks; symlinks are followed
 * the way the kernel follows them (`..` after a link climbs from its target), a dangling link's
 * target counts, and a link that leaves the project is a path outside.
 *
 * Fixture links: `link-out -> ../outside`, `cfg -> .claude`, `h -> .git/hooks`,
 * `notes.md -> ../outside/file` (dangling), `srcl -> src`, `up -> ..`, `sec -> secrets`, `loop -> loop`.
 */
export const PLACES = [
  corpusClass('tilde forms', 'asks: ~user, ~-, ~+N and ~-N depend on the user database, OLDPWD or the directory stack, so the path is unknown (never project-relative)', [
    bash('cat ~root/../proc/self/environ', 'ask', 'the reproduced leak: ~root is not a folder in the project'),
    bash('cat ~root/.bashrc', 'ask'), bash('cat ~nosuchuser/x', 'ask'), bash('cat ~-/x', 'ask', 'OLDPWD is not known'), bash('cat ~+2/x', 'ask'),
    bash('cat ~-1/x', 'ask'), bash('ls ~root', 'ask'), bash('head ~daemon/secret', 'ask'), bash('cat ~/.bashrc', 'ask', 'the home folder is outside'),
    bash('cat ~+/../x', 'ask', '~+ is the cwd; .. leaves it'), bash('echo x > ~root/f', 'ask', 'a redirection with ~user'),
    bash('echo x > ~+/.bashrc', 'ask', 'a protected file through ~+'), bash('cat < ~root/x', 'ask'), bash('dd if=~root/x of=src/y', 'ask', 'bash expands ~ after if='),
    bash('grep -f ~root/x src/a.ts', 'ask', 'a path-valued option with ~user'), bash('sort -o ~root/x src/a.ts', 'ask'), bash('cp ~root/x src/', 'ask', undefined, 'acceptEdits'),
    bash('cat ~+/.env', 'deny', '~+ is the cwd: the denied .env'), bash('cat ~root/../$USER/.env', 'ask'), tool('Read', { file_path: '~/.ssh/id_rsa' }, 'ask'),
  ]),
  corpusClass('tilde forms that stay allowed', 'allowed: ~+ is the cwd, and a quoted ~ is a folder named ~', [
    bash('cat ~+/src/a.ts', 'allow'), bash("cat '~'/x", 'allow', 'a folder literally named ~ inside the project'), bash('cat "~root/x"', 'allow', 'quoted: no expansion'),
    bash('ls ~+', 'allow'), bash('grep --file=~/x y src/a.ts', 'allow', 'bash does not expand ~ after --file=: it is ./~/x'),
  ]),
  corpusClass('cd the analysis cannot follow', 'asks: after cd -, cd $X, cd ~user, popd or a cd into a folder that is not there, relative paths could lead anywhere', [
    bash('cd - && cat x', 'ask'), bash('cd -; ls', 'ask'), bash('cd ~root && ls', 'ask'), bash('cd ~- && cat x', 'ask'), bash('popd && cat x', 'ask'),
    bash('pushd /tmp && cat x', 'ask'), bash('cd $DIR && cat x', 'ask'), bash('cd nonexistent; cat ../../x', 'ask', 'if cd fails, cat runs in the project and reads outside'),
    bash('cd', 'ask', 'goes to the home folder'), bash('cd; ls', 'ask'), bash('cd src/../.. && ls', 'ask'), bash('cd /tmp; cat x', 'ask'),
    bash('cd src; cat ../.env', 'deny', 'whether or not cd worked, ../.env from src is the denied file'), bash('cd src && cat ../secrets/key', 'deny'),
    bash('cd src; cat ../../x', 'ask', 'if cd failed, ../../x leaves the project'), bash('cd link-out && ls', 'ask', 'the folder is outside through a link'),
    bash('false && cd src; cat ../x', 'ask', 'cd may not have run'), bash('(cd src); cat ../x', 'ask', 'a subshell cd does not move the next command'),
    bash('env -C /tmp cat x', 'ask'), bash('cd .. && git status', 'ask'), bash('OLDPWD=/tmp cd - && cat x', 'ask'),
  ]),
  corpusClass('cd that stays allowed', 'allowed: the move is followed and every place stays inside', [
    bash('cd src && cat a.ts', 'allow'), bash('cd ~+/src && ls', 'allow'), bash('cd src && ls -la', 'allow'), bash('cd srcl && cat a.ts', 'allow', 'a link that stays inside'),
  ]),
  corpusClass('symlinks leaving the project or into protected folders', "asks (or denies): the check follows the link to where it really leads, a dangling link's target included", [
    bash('cat link-out/secret.txt', 'ask'), bash('cat link-out/../outside/secret.txt', 'ask', "'..' after a link climbs from its target, not back into the project"),
    bash('cat src/../link-out/secret.txt', 'ask'), bash('ls up/', 'ask', 'up -> ..'), bash('cat up/outside/secret.txt', 'ask'), bash('cat srcl/../../outside/secret.txt', 'ask'),
    bash('echo x > notes.md', 'ask', 'a dangling link: the write creates ../outside/file'), bash('touch notes.md', 'ask', undefined, 'acceptEdits'),
    bash('cp src/a.ts notes.md', 'ask', undefined, 'acceptEdits'), bash('echo x > cfg/settings.local.json', 'ask', 'cfg -> .claude: a settings file'),
    bash('echo x > h/pre-commit', 'ask', 'h -> .git/hooks: a hook'), bash('mkdir -p cfg/commands', 'ask', 'a protected folder through a link', 'acceptEdits'),
    bash('cp src/a.ts cfg/agents/x.md', 'ask', undefined, 'acceptEdits'), bash('cat loop/x', 'ask', 'a link loop has no place'), bash('echo x > loop', 'ask', 'a link loop has no place'),
    bash('cat sec/key', 'deny', 'sec -> secrets: the deny rule holds for the target'), bash('grep x sec/key', 'deny'), bash('echo x > up/outside/f', 'ask'),
    tool('Read', { file_path: 'notes.md' }, 'ask', 'its target is outside'), tool('Read', { file_path: 'link-out/../outside/secret.txt' }, 'ask'),
    tool('Read', { file_path: 'srcl/../.env' }, 'deny', 'srcl/.. is the project: the denied .env'), tool('Read', { file_path: 'sec/key' }, 'deny'),
    tool('Read', { file_path: 'loop' }, 'ask'), tool('Edit', { file_path: 'cfg/settings.json' }, 'ask', undefined, 'acceptEdits'),
    tool('Write', { file_path: 'cfg/settings.local.json' }, 'ask', 'the reproduced attack: its hook then ran', 'acceptEdits'),
    tool('Write', { file_path: 'h/pre-commit' }, 'ask', 'the reproduced attack: a git hook', 'acceptEdits'),
    tool('Write', { file_path: 'notes.md' }, 'ask', 'the reproduced attack: it created the outside file', 'acceptEdits'),
    tool('Write', { file_path: 'notes.md' }, 'deny', 'dontAsk refuses the ask a write outside makes', 'dontAsk'),
    tool('Write', { file_path: 'up/outside/new' }, 'ask', undefined, 'acceptEdits'), tool('Grep', { pattern: 'x', path: 'link-out' }, 'ask'),
    tool('Grep', { pattern: 'x', path: 'sec' }, 'deny'), tool('Glob', { pattern: '*', path: 'up' }, 'ask'),
  ]),
  corpusClass('symlinks that stay inside', 'allowed: the link leads inside and nothing protected is behind it', [
    bash('cat srcl/a.ts', 'allow'), tool('Read', { file_path: 'cfg/settings.json' }, 'allow', 'reading settings is fine'),
    tool('Edit', { file_path: 'srcl/a.ts' }, 'allow', undefined, 'acceptEdits'), tool('Read', { file_path: 'srcl/a.ts' }, 'allow'),
  ]),
]
