/** Model-facing description of CronDelete (Claude Code 2.1.328's). */
export default `
Cancel a cron job previously scheduled with CronCreate. Removes it from .claude/scheduled_tasks.json (durable jobs) or the in-memory session store (session-only jobs).
`
