import { bash, corpusClass, type CorpusClass } from './cases'

/**
 * Issue 25 item 1: values that reach an evaluating context without an assignment statement.
 * Bash evaluates the *text* of a value in arithmetic, array subscripts, substring offsets,
 * `[[ a -eq b ]]`, `-v`, `${!x}` and `${x@P}`; a value like `a[$(cmd)]` then runs `cmd`. Bash also
 * sets values with no statement at all (`$_`, `${x:=…}`, `BASH_REMATCH`, loop variables, `REPLY`,
 * the environment). Every setter below is crossed with every sink; `eval-sinks.test.ts` runs each
 * attack in real bash to show the payload really runs, and the corpus shows each asks.
 */

/** The payload: evaluated as arithmetic or as a name, its subscript runs `touch pwned`. */
export const PAYLOAD = 'a[$(touch pwned)]'
const VALUE = `'${PAYLOAD}'`

/** A way to give a variable the payload without an assignment statement. */
export interface Setter {
  name: string
  /** The variable as arithmetic sees it (`_`, `x`, `BASH_REMATCH[1]`). */
  ref: string
  wrap: (sink: string) => string
  /** Environment the attack needs in real bash (the value comes from outside the command). */
  env?: Record<string, string>
}

export const SETTERS: Setter[] = [
  { name: '$_ after echo', ref: '_', wrap: (sink) => `echo ${VALUE}; ${sink}` },
  { name: '$_ after printf', ref: '_', wrap: (sink) => `printf '%s\\n' ${VALUE} >/dev/null; ${sink}` },
  { name: '$_ after true', ref: '_', wrap: (sink) => `true ${VALUE}; ${sink}` },
  { name: '${x:=…} inside [[ ]]', ref: 'x', wrap: (sink) => `[[ \${x:=${VALUE}} ]]; ${sink}` },
  { name: '${x=…} inside [[ ]]', ref: 'x', wrap: (sink) => `[[ -n \${x=${VALUE}} ]] && ${sink}` },
  { name: 'BASH_REMATCH from =~', ref: 'BASH_REMATCH[1]', wrap: (sink) => `[[ ${VALUE} =~ (.*) ]]; ${sink}` },
  { name: 'for loop variable', ref: 'x', wrap: (sink) => `for x in ${VALUE}; do ${sink}; done` },
  { name: 'select loop variable', ref: 'x', wrap: (sink) => `select x in ${VALUE}; do ${sink}; break; done <<< 1` },
  { name: 'REPLY from select', ref: 'REPLY', wrap: (sink) => `select x in a; do ${sink}; break; done <<< ${VALUE}` },
  { name: 'the environment', ref: 'x', wrap: (sink) => sink, env: { x: PAYLOAD } },
]

/** An evaluating context, given the variable as arithmetic sees it. */
export interface Sink {
  name: string
  of: (ref: string) => string
}

export const SINKS: Sink[] = [
  { name: '(( name ))', of: (r) => `(( ${r} ))` },
  { name: '(( ${name} ))', of: (r) => `(( \${${r}} ))` },
  { name: '$(( name ))', of: (r) => `echo $(( ${r} ))` },
  { name: '"$(( ${name} + 1 ))"', of: (r) => `echo "$(( \${${r}} + 1 ))"` },
  { name: '$[ name ]', of: (r) => `echo $[ ${r} ]` },
  { name: '(( 1 ? name : 0 ))', of: (r) => `(( 1 ? ${r} : 0 ))` },
  { name: '[[ name -eq 0 ]]', of: (r) => `[[ ${r} -eq 0 ]]` },
  { name: '[[ 0 -lt ${name} ]]', of: (r) => `[[ 0 -lt \${${r}} ]]` },
  { name: '[[ -n x && name -ne 0 ]]', of: (r) => `[[ -n x && ${r} -ne 0 ]]` },
  { name: '[[ -v ${name} ]]', of: (r) => `[[ -v \${${r}} ]]` },
  { name: '[ -v "${name}" ]', of: (r) => `[ -v "\${${r}}" ]` },
  { name: '${a[name]}', of: (r) => `echo "\${a[${r}]}"` },
  { name: '${PWD:name}', of: (r) => `echo "\${PWD:${r}}"` },
  { name: '${!name}', of: (r) => `echo "\${!${r}}"` },
  { name: '${name@P}', of: (r) => `echo "\${${r}@P}"` },
  { name: 'here-document $(( name ))', of: (r) => `{ cat <<EOF\n$(( ${r} ))\nEOF\n}` },
  { name: 'here-document ${!name}', of: (r) => `{ cat <<EOF\n\${!${r}}\nEOF\n}` },
  { name: 'here-string $(( name ))', of: (r) => `cat <<< "$(( ${r} ))"` },
  { name: 'for (( ; name; ))', of: (r) => `for (( ; ${r}; )); do break; done` },
  { name: 'while (( name ))', of: (r) => `while (( ${r} )); do break; done` },
  { name: 'if [[ name -gt 0 ]]', of: (r) => `if [[ ${r} -gt 0 ]]; then :; fi` },
  { name: 'subshell ( (( name )) )', of: (r) => `( (( ${r} )) )` },
  { name: 'pipeline { (( name )); } | cat', of: (r) => `{ (( ${r} )); } | cat` },
  { name: 'case branch $(( name ))', of: (r) => `case x in x) echo $(( ${r} ));; esac` },
]

/** One attack of the matrix: the command, and what real bash does with it. */
export interface EvaluatingAttack {
  command: string
  why: string
  env?: Record<string, string>
}

export const MATRIX: EvaluatingAttack[] = SETTERS.flatMap((setter) =>
  SINKS.map((sink) => ({
    command: setter.wrap(sink.of(setter.ref)),
    why: `asks: ${setter.name} sets the payload and ${sink.name} evaluates it (its subscript runs touch)`,
    ...(setter.env ? { env: setter.env } : {}),
  })),
)

/** Attacks and neighbours outside the matrix that real bash carries out. */
export const MORE_ATTACKS: EvaluatingAttack[] = [
  ...['RANDOM', 'SRANDOM', 'SECONDS', 'OPTIND', 'HISTCMD'].map((name) => ({
    command: `for ${name} in ${VALUE}; do :; done`,
    why: `asks: assigning ${name} evaluates the word as arithmetic, so the loop itself runs the payload`,
  })),
  { command: `select RANDOM in ${VALUE}; do break; done <<< 1`, why: 'asks: select assigns RANDOM, which evaluates the word as arithmetic' },
  { command: `[ -v ${VALUE} ]`, why: 'asks: test -v evaluates the subscript of a literal name' },
  { command: `[[ -v ${VALUE} ]]`, why: 'asks: [[ -v ]] evaluates the subscript of a literal name' },
  { command: `[[ ${VALUE} -eq 0 ]]`, why: 'asks: [[ -eq ]] evaluates a literal operand as arithmetic' },
  { command: `[[ 1 -le ${VALUE} ]] || true`, why: 'asks: the right operand of -le is arithmetic too' },
  { command: `echo ${VALUE}; [[ _ -eq 1 ]]`, why: 'asks: a bare name in [[ -eq ]] is a variable, $_ here' },
  { command: `echo '$(touch pwned)'; echo "\${_@P}"`, why: 'asks: prompt expansion runs a plain $(…) in the value' },
  { command: `echo ${VALUE}; echo "\${PWD:$_:1}"`, why: 'asks: a substring length is arithmetic' },
  { command: `[[ ${VALUE} =~ (.*) ]]; [[ \${BASH_REMATCH[1]} -gt 0 ]]`, why: 'asks: the match array reaches [[ -gt ]]' },
  { command: `[[ ${VALUE} =~ (.*) ]]; echo $(( BASH_REMATCH ))`, why: 'asks: BASH_REMATCH without a subscript is element 0, the whole match' },
  { command: `for x in ${VALUE}; do :; done; echo $(( x ))`, why: 'asks: the loop variable keeps its last value after the loop' },
  { command: `for x in ${VALUE}; do echo "\${x:x}"; done`, why: 'asks: the loop variable reaches its own substring offset' },
  { command: `for x in a ${VALUE}; do [[ -v $x ]] && echo set; done`, why: 'asks: each word of the loop reaches [[ -v ]]' },
  { command: `echo ${VALUE}; while [[ $_ -ne 0 ]]; do break; done`, why: 'asks: a while condition compares $_ as arithmetic' },
  { command: `echo ${VALUE}; cat <<EOF\n$(( _ + 0 ))\nEOF\n`, why: 'asks: an unquoted here-document expands its arithmetic' },
  { command: `echo ${VALUE}; cat <<< $(( $_ ))`, why: 'asks: a here-string expands its arithmetic' },
]

/** What must be refused without a proof run: setters that need approval anyway, and conservative refusals. */
const NEIGHBOURS = [
  bash(`read x <<< ${VALUE}; (( x ))`, 'ask', 'read sets x from stdin, then arithmetic evaluates it'),
  bash(`mapfile -t a <<< ${VALUE}; (( a[0] ))`, 'ask', 'mapfile sets the array from stdin'),
  bash(`readarray a <<< ${VALUE}; echo "\${!a[0]}"`, 'ask', 'readarray sets the array; indirection uses it as a name'),
  bash(`getopts o: opt -o ${VALUE}; (( OPTARG ))`, 'ask', 'getopts sets OPTARG from the words'),
  bash(`printf -v x %s ${VALUE}; (( x ))`, 'ask', 'printf -v sets x'),
  bash(`declare x=${VALUE}; (( x ))`, 'ask', 'declare sets x'),
  bash(`declare -i x=${VALUE}`, 'ask', 'declare -i evaluates the value as arithmetic on assignment'),
  bash(`local x=${VALUE} 2>/dev/null; (( x ))`, 'ask', 'local sets x'),
  bash(`export x=${VALUE}; (( x ))`, 'ask', 'export sets x'),
  bash(`typeset x=${VALUE}; [[ -v $x ]]`, 'ask', 'typeset sets x'),
  bash(`readonly x=${VALUE}; echo \${!x}`, 'ask', 'readonly sets x'),
  bash(`let x=1 ${VALUE}`, 'ask', 'let evaluates its words as arithmetic'),
  bash(`echo ${VALUE}; let _`, 'ask', 'let evaluates $_'),
  bash('(( x = 1 ))', 'ask', 'arithmetic assignment sets x'),
  bash('echo $(( x = 1 ))', 'ask', 'arithmetic assignment inside $(( ))'),
  bash('(( x++ ))', 'ask', 'arithmetic increments x'),
  bash('coproc cat', 'ask', 'coproc starts a background process and sets COPROC'),
  bash(`unset ${VALUE}`, 'ask', 'unset evaluates a subscript'),
  bash(`test -v ${VALUE}`, 'ask', 'test is not on the read-only list, and -v evaluates the subscript'),
  bash('echo a; test -v "$_"', 'ask', 'test -v with $_'),
  bash(`[[ -R ${VALUE} ]]`, 'ask', '-R takes a name: refused like -v'),
  bash('[[ -R $x ]]', 'ask', '-R takes a name from a value'),
  bash('[[ -v a[$x] ]]', 'ask', 'a -v subscript written with a variable'),
  bash('[[ -v "a[0]" ]]', 'ask', 'a quoted -v name (conservative: only bare literal names pass)'),
  bash('echo "${!BASH*}"', 'ask', 'indirect forms are refused whatever they list'),
  bash('cat <<EOF\n${!BASH*}\nEOF\n', 'ask', 'indirect forms in a here-document'),
  bash('echo "${!a[@]}"', 'ask', 'indirect forms are refused (the keys of a are harmless, but the rule stays simple)'),
  bash('[[ -n ${!x} ]]', 'ask', 'indirection inside [[ ]]'),
  bash('[[ -n ${x@P} ]]', 'ask', 'prompt expansion inside [[ ]]'),
  bash('case ${x@P} in *) ;; esac', 'ask', 'prompt expansion as a case word'),
  bash('for f in ${!x}; do :; done', 'ask', 'indirection in a loop list'),
  bash('[[ $"msg" == x ]]', 'ask', 'a translated string is expanded again after translation'),
  bash('cat <<EOF\n${a[$x]}\nEOF\n', 'ask', 'a subscript over a variable in a here-document'),
  bash('cat <<EOF\n${PWD:x:1}\nEOF\n', 'ask', 'a substring offset over a variable in a here-document'),
  bash('cat <<EOF\n$[ x ]\nEOF\n', 'ask', 'the old $[ ] arithmetic in a here-document'),
  bash('[[ ${a[x]} ]]', 'ask', 'a subscript over a bare name inside [[ ]]'),
  bash('[[ ${PWD: x} ]]', 'ask', 'a substring offset over a bare name inside [[ ]]'),
  bash('[[ ${PWD:1:x} ]]', 'ask', 'a substring length over a bare name inside [[ ]]'),
  bash('[[ "$x" -eq 1 ]]', 'ask', 'a quoted variable is still evaluated by -eq'),
  bash("[[ '1' -eq 1 ]]", 'ask', 'conservative: quoted operands of -eq are refused'),
  bash('[[ $(( x )) -eq 1 ]]', 'ask', 'arithmetic over a name inside [[ ]]'),
  bash('(( $1 ))', 'ask', 'positional parameters are values too'),
  bash('(( $- ))', 'ask', '$- expands to letters, which arithmetic reads as a variable name'),
  bash('(( $@ ))', 'ask', 'the words of $@ are values'),
  bash('(( PWD ))', 'ask', 'PWD is a directory name the repository chooses'),
  bash('(( OLDPWD ))', 'ask', 'OLDPWD is set by cd'),
  bash('(( HOME ))', 'ask', 'an environment variable (names the environment sets are treated conservatively)'),
  bash('echo $(( RANDOM % 6 ))', 'ask', 'conservative: even bash’s own integer variables may be reassigned or unset by the environment'),
  bash('[[ $LINENO -gt 0 ]]', 'ask', 'conservative: LINENO is a name like any other here'),
  bash('for PATH in .; do ls; done', 'ask', 'a loop over PATH makes ls run ./ls from the repository'),
  bash('for IFS in x; do echo a; done', 'ask', 'a loop over IFS changes word splitting'),
  bash('for HOME in /tmp; do ls ~; done', 'ask', 'a loop over HOME moves ~'),
  bash('for GIT_DIR in /tmp/x; do git log; done', 'ask', 'a loop over a variable git reads'),
  bash('for http_proxy in http://evil; do git log; done', 'ask', 'proxy variables are lower-case and read by programs'),
  bash('for histchars in x; do :; done', 'ask', 'histchars is read by bash'),
  bash('for _ in a; do :; done', 'ask', '_ is a special variable'),
  bash('select REPLY in a; do break; done <<< 1', 'ask', 'REPLY is set by select itself'),
  bash(`f() { (( $1 )); }; f ${VALUE}`, 'ask', 'a function receives the payload as $1 (functions ask anyway)'),
  bash(`f() { echo ${VALUE}; (( _ )); }; f`, 'ask', 'the attack inside a function body'),
  bash(`bash -c 'echo ${PAYLOAD}; (( _ ))'`, 'ask', 'the attack inside bash -c is analysed like the outer line'),
  bash(`bash -c '(( x ))'`, 'ask', 'arithmetic over a name inside bash -c'),
  bash(`echo "$(echo ${VALUE}; (( _ )))"`, 'ask', 'the attack inside a command substitution (which asks anyway)'),
  bash('(( x )) &', 'ask', 'arithmetic over a name in the background'),
  bash('! (( x ))', 'ask', 'arithmetic over a name, negated'),
  bash('time (( x ))', 'ask', 'arithmetic over a name, timed'),
  bash('(( x )) > /dev/null', 'ask', 'arithmetic over a name with a redirect'),
  bash('[[ x -eq 1 ]] 2>/dev/null || echo no', 'ask', 'a bare name in [[ -eq ]] in a list'),
  bash('until (( x )); do break; done', 'ask', 'arithmetic in an until condition'),
  bash('echo "$(( x ))"', 'ask', 'arithmetic over a name in a double-quoted string'),
  bash("echo ${x:-$((y))}", 'ask', 'arithmetic over a name inside a default value'),
]

/** What must stay read-only (allowed without a rule) or behave as before. */
const CONTROLS = [
  bash('(( 1 + 2 )) && ls', 'allow', 'arithmetic over literals only'),
  bash('(( 1 + 2 ))', 'ask', 'unchanged: a line with no command at all is not auto-allowed (nothing here evaluates a value)'),
  bash('(( 0x1f + 2#101 - 8#17 )); ls', 'allow', 'hex and base-n literals are numbers'),
  bash('(( 1 )) && ls', 'allow', 'arithmetic over literals, then a read-only command'),
  bash('[[ 3 -gt 2 ]] && echo yes', 'allow', 'a comparison of literals'),
  bash('[[ $? -eq 0 ]] && echo ok', 'allow', '$? is an integer bash keeps: safe in arithmetic'),
  bash('ls; [[ $? -ne 0 ]] || echo fine', 'allow', '$? after a command'),
  bash('[[ $# -eq 0 ]] || ls', 'allow', '$# is an integer'),
  bash('[[ "$?" -ne 0 ]] || ls', 'allow', 'a quoted $? is still an integer'),
  bash('[[ ${#x} -gt 0 ]] && ls', 'allow', 'a length is always digits'),
  bash('(( ${#a[@]} > 0 )) || ls', 'allow', 'an element count is always digits'),
  bash('[[ -n $x ]] && ls', 'allow', '-n only tests a value, never evaluates it'),
  bash('[[ -z "$x" ]] && echo empty', 'allow', '-z only tests a value'),
  bash('[[ $x == foo* ]] && echo match', 'allow', 'a pattern match does not evaluate the value'),
  bash('[[ $x =~ ^[0-9]+$ ]] && echo number', 'allow', 'a regex match does not evaluate the value'),
  bash('[[ -f README.md ]] && cat README.md', 'allow', 'file tests do not evaluate values'),
  bash('[ -n "$x" ] || ls', 'allow', 'single-bracket -n'),
  bash('[ "$x" -eq 1 ] 2>/dev/null && ls', 'allow', 'single-bracket -eq takes plain integers only: it evaluates nothing (real bash shows it)'),
  bash('[[ -v HOME ]] && ls ~/..', 'ask', 'a -v of a literal name is fine; ls outside the project asks as before'),
  bash('[[ -v HOME ]] && ls', 'allow', '-v of a literal name'),
  bash('[[ -v a[1] ]] || ls', 'allow', '-v of a literal name with a literal subscript'),
  bash('[ -v PATH ] && ls', 'allow', 'single-bracket -v of a literal name'),
  bash('for f in a b c; do echo done; done', 'allow', 'a lower-case loop variable over literal words'),
  bash('for f in *.md; do cat README.md; done', 'allow', 'a loop over a glob running a read-only command'),
  bash('for i in 1 2 3; do (( 2 > 1 )) && ls; done', 'allow', 'literal arithmetic in a loop'),
  bash('for (( ; 0; )); do ls; done', 'allow', 'for (( )) with literal clauses only'),
  bash('case x in x) ls;; esac', 'allow', 'a case over a literal word'),
  bash('case "$x" in foo) ls;; esac', 'allow', 'case matches a value as a pattern, it evaluates nothing'),
  bash('if [[ -d src ]]; then ls src; fi', 'allow', 'a test and a read-only command'),
  bash('while false; do :; done', 'allow', 'a loop that never runs'),
  bash('cat <<EOF\nplain text $x and ${y} and ${z:-none}\nEOF\n', 'allow', 'an unquoted here-document whose values are only inserted'),
  bash("cat <<'EOF'\n$(( x )) ${!y} ${z@P}\nEOF\n", 'allow', 'a quoted here-document is not expanded'),
  bash('cat <<< "plain"', 'allow', 'a here-string of a literal'),
  bash('grep -c foo README.md | head', 'allow', 'a pipeline of readers'),
  bash("echo '$(( x )) ${!y}'", 'allow', 'single quotes: nothing is expanded'),
  bash("grep -n '[[ x -eq 1 ]]' README.md", 'allow', 'a pattern that only looks like a test'),
  bash('echo $((1+2))', 'allow', 'literal arithmetic in echo (the Bash(echo *) rule covers it)'),
  bash('echo $((x))', 'ask', 'the Bash(echo *) rule does not cover arithmetic over a name'),
  bash('for f in *.ts; do wc -l "$f"; done', 'ask', 'unchanged: the analysis does not follow the loop variable into wc’s path (asks as before)'),
]

/** Plan mode uses the same read-only decision: the attacks are refused there, the controls run. */
const PLAN = [
  bash(`echo ${VALUE}; (( $_ ))`, 'deny', 'plan mode: the reported $_ attack is not read-only', 'plan'),
  bash(`: \${x:=${VALUE}}; (( x ))`, 'deny', 'plan mode: the reported default-assignment attack', 'plan'),
  bash(`[[ ${VALUE} =~ (.*) ]]; echo $(( BASH_REMATCH[1] ))`, 'deny', 'plan mode: the reported BASH_REMATCH attack', 'plan'),
  bash(`[[ \${x:=${VALUE}} ]]; (( x ))`, 'deny', 'plan mode: a default assignment inside [[ ]]', 'plan'),
  bash(`for x in ${VALUE}; do (( x )); done`, 'deny', 'plan mode: a loop variable reaches arithmetic', 'plan'),
  bash(`for RANDOM in ${VALUE}; do :; done`, 'deny', 'plan mode: a loop over RANDOM', 'plan'),
  bash(`[ -v ${VALUE} ]`, 'deny', 'plan mode: test -v of a literal with a subscript', 'plan'),
  bash('echo "${!x}"', 'deny', 'plan mode: indirection', 'plan'),
  bash('cat <<EOF\n${x@P}\nEOF\n', 'deny', 'plan mode: prompt expansion in a here-document', 'plan'),
  bash('select x in a; do (( REPLY )); break; done', 'deny', 'plan mode: REPLY read from stdin reaches arithmetic', 'plan'),
  bash('for PATH in .; do ls; done', 'deny', 'plan mode: a loop over PATH', 'plan'),
  bash('(( 1 + 2 )) && ls', 'allow', 'plan mode: literal arithmetic is read-only', 'plan'),
  bash('[[ $? -eq 0 ]] && ls', 'allow', 'plan mode: $? in a comparison', 'plan'),
  bash('for f in a b; do ls; done', 'allow', 'plan mode: a plain loop', 'plan'),
  bash('[[ -n $x ]] && echo set', 'allow', 'plan mode: a value test', 'plan'),
]

export const EVALUATING: CorpusClass[] = [
  corpusClass('evaluating contexts: every implicit setter × every sink', 'asks: the value reaches an evaluating context', [...MATRIX, ...MORE_ATTACKS].map((attack) => bash(attack.command, 'ask', attack.why))),
  corpusClass('evaluating contexts: explicit setters, conservative refusals and neighbours', 'asks: a value reaches an evaluating context', NEIGHBOURS),
  corpusClass('evaluating contexts: benign controls', 'allowed: nothing evaluates a value', CONTROLS),
  corpusClass('evaluating contexts: plan mode', 'plan mode uses the same read-only decision', PLAN),
]
