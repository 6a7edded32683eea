/**
 * How the Agent terminal writes around each Bash command: a header with the command line, and a
 * footer with its exit code. The Bash tool ends every command with an OSC 6973 marker
 * (`ESC ] 6973 ; <nonce> ; <exit code> BEL`), which the terminal hands to us as `<nonce>;<code>`.
 */

/** The Bash tool's end-of-command OSC number. */
export const BASH_END_OSC = 6973

const DIM = '\x1b[2m'
const BOLD_CYAN = '\x1b[1;36m'
const RED = '\x1b[31m'
const GREEN = '\x1b[32m'
const RESET = '\x1b[0m'

/** The header line of a command: `$ command` (multi-line commands indented), on a fresh line. */
export function commandHeader(command: string, first: boolean): string {
  const lines = command.split('\n')
  const body = lines
    .map((line, i) => (i === 0 ? `${BOLD_CYAN}$ ${line}` : `${BOLD_CYAN}> ${line}`))
    .join('\r\n')
  return `${first ? '' : '\r\n'}${body}${RESET}\r\n`
}

/** The exit code in an OSC 6973 payload (`nonce;code`), or undefined. */
export function exitCodeOf(payload: string): number | undefined {
  const code = payload.split(';').at(-1)
  return code !== undefined && /^\d+$/.test(code) ? Number(code) : undefined
}

/** The footer once a command ended: its exit code, or that it was stopped. */
export function commandFooter(exitCode: number | undefined): string {
  if (exitCode === undefined) return `\r\n${DIM}[stopped]${RESET}\r\n`
  return `\r\n${exitCode === 0 ? GREEN : RED}[exit ${exitCode}]${RESET}\r\n`
}

/** What the Agent terminal says before the first command. */
export const AGENT_GREETING = `${DIM}Commands the agent runs appear here live. Type to answer a command that waits for input.${RESET}\r\n`

/** A separator when the Agent terminal starts showing another session. */
export function sessionBanner(title: string): string {
  return `\r\n${DIM}── ${title} ──${RESET}\r\n`
}

/** Text from a stored tool result, with terminal line ends. */
export function asTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n')
}
