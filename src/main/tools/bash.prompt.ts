/** Model-facing description of Bash. */
export default `
Executes a given bash command and returns its output.

The working directory persists between commands (a \`cd\` carries over to the next call), but shell variables and functions do not. The shell environment is non-interactive: PAGER=cat, GIT_PAGER=cat, GIT_TERMINAL_PROMPT=0, NO_COLOR=1.

IMPORTANT: Avoid using this tool to run \`find\`, \`grep\`, \`cat\`, \`head\`, \`tail\`, \`sed\`, \`awk\`, or \`echo\` commands, unless explicitly instructed or after you have verified that a dedicated tool cannot accomplish your task. Instead, use the appropriate dedicated tool as this will provide a much better experience for the user:
- File search: Use Glob (NOT find or ls)
- Content search: Use Grep (NOT grep or rg)
- Read files: Use Read (NOT cat/head/tail)
- Edit files: Use Edit (NOT sed/awk)
- Write files: Use Write (NOT echo >/cat <<EOF)

Usage notes:
- The command argument is required.
- Always quote file paths that contain spaces with double quotes (e.g., cd "path with spaces/file.txt").
- You can specify an optional timeout in milliseconds (up to 600000ms / 10 minutes). If not specified, commands will time out after 120000ms (2 minutes). A command that times out is killed with its whole process group.
- Write a clear, concise description of what the command does in 5-10 words (description).
- If the output exceeds 30000 characters (or the user's bashOutputMaxChars setting), the middle of the output is cut before being returned to you, and the whole output is saved to a file the result names: Read it if you need what was cut.
- Commands run in a real terminal the user can see. A command that waits for input waits until the user types it or the timeout ends, so prefer non-interactive flags (e.g. \`--yes\`, \`-y\`, \`--no-edit\`).
- You can use the run_in_background parameter to run a long-running command (a dev server, a watcher, a long build) in the background. You get an id such as "bash_1" at once; check its output with TaskOutput and stop it with TaskStop. Do not append \`&\` yourself: processes left behind by a foreground command are stopped when it ends.
- When issuing multiple commands, use ';' or '&&' to separate them rather than newlines. Use '&&' when later commands depend on earlier ones.
- Prefer absolute paths over \`cd\` where you can.
`
