import { bash, corpusClass, tool } from './cases'

/**
 * Issue 10 items 5 and 7: deny rules hold for searches and globs, and Glob is judged by where its
 * pattern reaches. With `Read(./secrets/**)` and `Read(./.env)` denied (and `Read(./private/**)`
 * asked), a glob that matches a denied file now and a recursive search over a folder that may hold
 * one ask; the Grep and Glob tools leave such files out themselves (tested with the tools).
 */
export const SEARCHING = [
  corpusClass('globs and recursive searches reaching a denied file', 'asks: the glob or the search would read a file a deny (or ask) rule covers', [
    bash('cat secret?/key', 'ask', 'the reproduced bypass: the glob matches secrets/key'), bash('cat s*/k*', 'ask', 'the reproduced bypass'),
    bash('cat */key', 'ask'), bash('head -1 ./*/key', 'ask'), bash('cat .en?', 'ask', 'matches .env'), bash('cat .e*', 'ask', 'matches .env'),
    bash('grep TOKEN secret?/key', 'ask'), bash('wc -l s*/*', 'ask'), bash('cat [s]ecrets/key', 'ask', 'a bracket glob'), bash('cat priv*/notes.txt', 'ask', 'an ask rule through a glob'),
    bash('grep -r TOKEN .', 'ask', 'the reproduced leak'), bash('grep -r TOKEN', 'ask', 'grep -r searches . when no folder is named'),
    bash('grep -rl TOKEN ./', 'ask'), bash('grep -d recurse TOKEN .', 'ask'), bash('grep -r --include=key TOKEN .', 'ask', 'an include filter does not keep the folder out'),
    bash('rg TOKEN', 'ask', 'rg searches the cwd'), bash('rg TOKEN .', 'ask'), bash('rg -uuu TOKEN', 'ask'), bash('rg --files', 'ask', 'lists the denied names'),
    bash('rg -l TOKEN --hidden', 'ask'), bash('find . -name key', 'ask', 'lists the denied folder'), bash('find', 'ask'), bash('find . -type f -exec cat {} +', 'ask'),
    bash('ls -R', 'ask'), bash('ls -R .', 'ask'), bash('du -a', 'ask'), bash('tree', 'ask'), bash('tree -a .', 'ask'), bash('git grep TOKEN', 'ask', 'searches the tracked tree'),
    bash('diff -r . /tmp/x', 'ask'), bash('cd src && grep -r TOKEN ..', 'ask'), bash('grep -r TOKEN $PWD', 'ask', 'a folder only known at run time'),
    bash('grep -r TOKEN private', 'ask', 'an ask rule covers the folder'), bash('cat private/notes.txt', 'ask', 'an ask rule'),
  ]),
  corpusClass('denied paths named outright', 'denied: the deny rule covers the file or folder named', [
    bash('cat secrets/*', 'deny', 'the glob’s folder is denied'), bash('grep -r x secrets', 'deny'), bash('ls secrets', 'deny'), bash('rg x secrets', 'deny'),
    bash('find secrets -name x', 'deny'), bash('cat ./secrets/../secrets/key', 'deny'), tool('Grep', { pattern: 'x', path: 'secrets' }, 'deny'),
    tool('Grep', { pattern: 'x', path: 'secrets/key' }, 'deny'), tool('Glob', { pattern: 'secrets/*' }, 'deny', "the pattern's base is denied"),
    tool('Glob', { pattern: '*', path: 'secrets' }, 'deny'), tool('Read', { file_path: 'private/notes.txt' }, 'ask', 'an ask rule'),
  ]),
  corpusClass('searching around denied paths stays allowed', 'allowed: the search cannot reach a denied file (the tools filter their own results)', [
    bash('cat src/*.ts', 'allow'), bash('grep -r TOKEN src', 'allow'), bash('rg TOKEN src docs', 'allow'), bash('find src docs -name x', 'allow'),
    bash('ls -R src', 'allow'), bash('cat s?c/a.ts', 'allow', 'the glob matches only src'), bash('ls *', 'ask', 'ls * names secrets: a denied folder'),
    tool('Grep', { pattern: 'TOKEN' }, 'allow', 'the Grep tool leaves denied files out of its results'), tool('Glob', { pattern: '**/*' }, 'allow', 'the Glob tool leaves denied files out'),
    tool('Grep', { pattern: 'TOKEN', path: 'src' }, 'allow'),
  ]),
  corpusClass('Glob reaching outside the project', "asks: the check covers the pattern's base, not just path", [
    tool('Glob', { pattern: '../../x/*' }, 'ask', 'the reproduced listing'), tool('Glob', { pattern: '/etc/*' }, 'ask', 'an absolute pattern'),
    tool('Glob', { pattern: '$OUTSIDE/*' }, 'ask', 'an absolute pattern outside'), tool('Glob', { pattern: '~/x/*' }, 'ask', 'the home folder'),
    tool('Glob', { pattern: '~/.ssh/*' }, 'ask'), tool('Glob', { pattern: '../*' }, 'ask'), tool('Glob', { pattern: 'src/../../*' }, 'ask'),
    tool('Glob', { pattern: 'src/*/../../../*' }, 'ask', "a '..' after a glob segment climbs out"), tool('Glob', { pattern: '**/../../*' }, 'ask'),
    tool('Glob', { pattern: 'link-out/*' }, 'ask', 'a link out of the project'), tool('Glob', { pattern: 'up/*' }, 'ask'),
    tool('Glob', { pattern: '*', path: '..' }, 'ask'), tool('Glob', { pattern: '../../outside/**', path: 'src' }, 'ask'),
  ]),
  corpusClass('Glob inside the project', 'allowed: the pattern stays inside', [
    tool('Glob', { pattern: '*.ts', path: 'src' }, 'allow'), tool('Glob', { pattern: 'src/**' }, 'allow'), tool('Glob', { pattern: '$ROOT/src/*' }, 'allow', 'an absolute pattern inside'),
    tool('Glob', { pattern: 'src/*/../*.ts' }, 'allow', 'climbs back only to src'), tool('Glob', { pattern: '**/*.md' }, 'allow'),
  ]),
]
