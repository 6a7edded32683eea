/** Model-facing description of CronList (Claude Code 2.1.328's). */
export default `
List all cron jobs scheduled via CronCreate, both durable (.claude/scheduled_tasks.json) and session-only.
`
