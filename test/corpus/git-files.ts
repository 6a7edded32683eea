import { bash, corpusClass, tool } from './cases'

/**
 * Issue 10 item 2: every file by which git can be made to run code or change its directory is a
 * protected path, whatever writes it (a redirection, a file command, git itself, a file tool) and
 * in every mode: in bypassPermissions and acceptEdits nothing else would ask.
 */
export const GIT_FILES = [
  corpusClass("git's own files through redirections and file commands (bypassPermissions)", "asks in every mode: writing it makes the user's next git run a program or work in another folder", [
    bash('echo /tmp/evil > .git/commondir', 'ask', 'commondir sends git to another git folder (the reproduced escape)', 'bypassPermissions'),
    bash('touch .git/config.worktree', 'ask', 'per-worktree config', 'bypassPermissions'),
    bash('cp src/a.ts .git/hooks/pre-commit', 'ask', 'a hook', 'bypassPermissions'),
    bash('mv src/a.ts .git/hooks/post-checkout', 'ask', 'a hook', 'bypassPermissions'),
    bash('ln -s /tmp/objects .git/objects/info/alternates', 'ask', 'another object store', 'bypassPermissions'),
    bash('echo "*.c diff=evil" | tee .git/info/attributes', 'ask', 'attributes that pick a driver', 'bypassPermissions'),
    bash('mkdir -p .git/modules/x', 'ask', "a submodule's git folder", 'bypassPermissions'),
    bash('echo "[core] fsmonitor = id" >> .git/modules/x/config', 'ask', "a submodule's config", 'bypassPermissions'),
    bash('echo "gitdir: /tmp/evil" > .git/worktrees/w/gitdir', 'ask', "a linked worktree's pointer", 'bypassPermissions'),
    bash('sed -i s/a/b/ .git/config', 'ask', 'edits the repository config in place', 'bypassPermissions'),
    bash('dd if=src/a.ts of=.git/config', 'ask', 'dd of= writes the config', 'bypassPermissions'),
    bash('install -m 755 src/a.ts .git/hooks/pre-push', 'ask', 'installs a hook', 'bypassPermissions'),
    bash('tar -xf hooks.tar -C .git/hooks', 'ask', 'extracts into the hooks folder (-C is a path whatever it starts with)', 'bypassPermissions'),
    bash('cp -t .git/hooks src/a.ts', 'ask', 'cp -t names the target folder', 'bypassPermissions'),
    bash('rsync src/a.ts .git/hooks/', 'ask', 'copies into the hooks folder', 'bypassPermissions'),
    bash('unzip -d .git/hooks hooks.zip', 'ask', 'unzips into the hooks folder', 'bypassPermissions'),
    bash('patch -o .git/config < x.patch', 'ask', 'patch -o writes the config', 'bypassPermissions'),
    bash('truncate -s 0 .git/config', 'ask', 'truncates the config', 'bypassPermissions'),
    bash('printf "[core]\\n\\thooksPath = x" > .git/config', 'ask', 'rewrites the config', 'bypassPermissions'),
    bash('echo x > .gitmodules', 'ask', '.gitmodules redirects submodules', 'bypassPermissions'),
    bash('echo x > sub/.git/config', 'ask', "a nested repository's config", 'bypassPermissions'),
    bash('echo "[core] fsmonitor = id" > repo.git/config', 'ask', 'a folder named like a bare repository', 'bypassPermissions'),
    bash('echo "gitdir: /tmp/evil" > .git', 'ask', 'a .git file points git at another folder', 'bypassPermissions'),
    bash('git config core.fsmonitor id', 'ask', 'git config writes .git/config', 'bypassPermissions'),
    bash('git config core.hooksPath /tmp/hooks', 'ask', 'moves the hooks', 'bypassPermissions'),
    bash('git config --global core.pager id', 'ask', 'writes ~/.gitconfig', 'bypassPermissions'),
    bash('git worktree add ../w', 'ask', 'writes worktree pointers', 'bypassPermissions'),
    bash('git submodule add https://example.com/x x', 'ask', 'writes .gitmodules and submodule config', 'bypassPermissions'),
    bash('git lfs install', 'ask', 'installs hooks', 'bypassPermissions'),
    bash('GIT_DIR=. git config core.pager id', 'ask', 'config through GIT_DIR', 'bypassPermissions'),
    bash('cd .git && echo x > commondir', 'ask', 'the cwd moved into .git', 'bypassPermissions'),
    bash('echo x > ./.git/./hooks/../commondir', 'ask', 'dots in the path', 'bypassPermissions'),
    bash('echo x > src/../.git/commondir', 'ask', 'climbs back into .git', 'bypassPermissions'),
  ]),
  corpusClass("git's own files in acceptEdits and through the file tools", 'asks: a protected path is never accepted by a mode or an allow rule', [
    bash('touch .git/commondir', 'ask', 'acceptEdits accepts touch inside, but not of a protected path', 'acceptEdits'),
    bash('cp src/a.ts .git/config.worktree', 'ask', undefined, 'acceptEdits'),
    bash('mkdir .git/modules', 'ask', undefined, 'acceptEdits'),
    bash('mv README.md .git/info/attributes', 'ask', undefined, 'acceptEdits'),
    bash('cp src/a.ts h/pre-commit', 'ask', 'h -> .git/hooks: the link leads into the hooks', 'acceptEdits'),
    tool('Edit', { file_path: '.git/commondir' }, 'ask', undefined, 'acceptEdits'),
    tool('Write', { file_path: '.git/config.worktree' }, 'ask', undefined, 'acceptEdits'),
    tool('Write', { file_path: '.git/modules/x/config' }, 'ask', undefined, 'acceptEdits'),
    tool('Write', { file_path: '.git/objects/info/alternates' }, 'ask', undefined, 'bypassPermissions'),
    tool('Write', { file_path: '.git' }, 'ask', 'the .git pointer file itself', 'bypassPermissions'),
    tool('Write', { file_path: 'h/post-merge' }, 'ask', 'a hook through the h link', 'bypassPermissions'),
    tool('Edit', { file_path: 'repo.git/hooks/update' }, 'ask', 'a bare repository folder', 'bypassPermissions'),
    tool('Write', { file_path: '.gitmodules' }, 'ask', undefined, 'acceptEdits'),
  ]),
  corpusClass('normal work next to git', 'allowed: ordinary files, and git commands that only read', [
    bash('touch src/new.ts', 'allow', undefined, 'acceptEdits'), bash('git status', 'allow', undefined, 'acceptEdits'),
    tool('Write', { file_path: 'src/gitignore-notes.md' }, 'allow', undefined, 'acceptEdits'), tool('Write', { file_path: 'src/x.git' }, 'allow', 'a file (not a folder) named *.git', 'acceptEdits'),
  ]),
]
