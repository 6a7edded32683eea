import { bash, corpusClass } from './cases'

/**
 * Issue 10 item 6: a wrapper's own options and side effects count. `time -o FILE` writes FILE
 * (a path whatever it starts with), `nohup` writes `nohup.out`, `env -C` and `sudo -D` move the
 * command, `watch`, `flock -c`, `script -c` and `env -S` run a command line, and every wrapper is
 * seen through by deny rules.
 */
export const WRAPPERS = [
  corpusClass("wrappers' own writes and moves", 'asks: the wrapper itself writes a file, or moves the command somewhere the check must follow', [
    bash('time -o /tmp/x ls', 'ask', 'time -o writes outside'), bash('time -o out.txt ls', 'ask', 'time -o writes a file'),
    bash('command time -o ./../../../x ls', 'ask', 'the reproduced overwrite: a path whatever it starts with'), bash('time --output=../x ls', 'ask'),
    bash('time -a -o log.txt ls', 'ask'), bash('time -ao log.txt ls', 'ask', 'bundled'), bash('time --out=../x ls', 'ask', 'an abbreviation of --output'),
    bash('nohup cat src/a.ts', 'ask', 'nohup writes nohup.out'), bash('nohup cat /etc/passwd', 'ask'), bash('cd /tmp && nohup ls', 'ask'),
    bash('timeout 5s cat /etc/passwd', 'ask'), bash('nice -n 5 cat /etc/passwd', 'ask'), bash('stdbuf -oL cat /etc/passwd', 'ask'),
    bash('sudo -D secrets cat key', 'deny', 'sudo -D moves the command into secrets'), bash('sudo -u root cat /etc/shadow', 'ask'),
    bash('strace -o /tmp/x ls', 'ask', 'strace -o writes'), bash('ltrace -o out ls', 'ask'), bash('script -q -c ls log.txt', 'ask', 'script writes the session file'),
    bash('script', 'ask', 'script writes ./typescript'), bash('flock /tmp/lock ls', 'ask', 'flock creates its lock file'), bash('flock .git/config ls', 'ask', undefined, 'bypassPermissions'),
    bash('time -o .git/commondir ls', 'ask', 'time -o into git’s own files', 'bypassPermissions'), bash('nohup ls', 'allow', 'bypass: nohup.out inside is fine', 'bypassPermissions'),
    bash('strace -o .git/hooks/pre-commit ls', 'ask', undefined, 'bypassPermissions'), bash('watch ls', 'ask', 'watch runs a command line with sh'),
  ]),
  corpusClass('deny rules through every wrapper', 'denied: the wrapped command is rm (or reads a denied file), however it is wrapped', [
    bash('timeout --signal=KILL 5 rm x', 'deny'), bash('timeout -k 1 5 cat .env', 'deny'), bash('nice --adjustment=5 rm x', 'deny'), bash('nice -10 rm x', 'deny'),
    bash('command -p rm x', 'deny'), bash('time -o out.txt rm x', 'deny'), bash('time -p rm x', 'deny'), bash('stdbuf --output=L rm x', 'deny'),
    bash("watch 'rm -rf x'", 'deny', 'watch runs its words with sh'), bash("watch -n 1 'cat .env'", 'deny'), bash("flock /tmp/l -c 'rm x'", 'deny', 'flock -c after the lock file'),
    bash("flock -c 'rm x' /tmp/l", 'deny'), bash("script -c 'rm x' /dev/null", 'deny'), bash('exec rm x', 'deny'), bash('chroot / rm x', 'deny'),
    bash('setsid rm x', 'deny'), bash('ionice -c3 rm x', 'deny'), bash('time nohup rm x', 'deny'), bash('unshare -r cat .env', 'deny'),
    bash('caffeinate -i rm x', 'deny'), bash('xargs -I{} rm {}', 'deny'), bash('env -i rm x', 'deny'), bash('env -u HOME rm x', 'deny'),
    bash('sudo -E rm x', 'deny'), bash('doas rm x', 'deny'), bash('timeout 5 env nice rm x', 'deny'), bash("bash -c 'timeout 5 rm x'", 'deny'),
    bash('command -- rm x', 'deny'), bash('builtin rm x', 'deny'), bash("env -S 'rm x'", 'deny'),
  ]),
  corpusClass('wrappers that stay allowed', 'allowed: the wrapper only times, limits or re-prioritises a read-only command inside', [
    bash('timeout 5 ls', 'allow'), bash('timeout -s KILL 5 ls', 'allow'), bash('timeout --foreground 5 cat src/a.ts', 'allow'), bash('nice ls', 'allow'),
    bash('nice -n 10 ls', 'allow'), bash('nice -10 ls', 'allow'), bash('command -p ls', 'allow'), bash('command -v rm', 'allow', 'command -v only describes rm'),
    bash('command -V ls', 'allow'), bash('builtin echo hi', 'allow'), bash('stdbuf --output=L ls', 'allow', '--output is a buffering mode here, not a file'),
    bash('time -p ls', 'allow'), bash('time -f %e ls', 'allow'), bash('nohup npm run test', 'allow', 'an allow rule covers it; nohup.out is inside'),
  ]),
]
