import type * as Croner from 'croner'

/**
 * Cron expressions for scheduled prompts (CronCreate). Claude Code's are five fields in local
 * time ("M H DoM Mon DoW"); a sixth, leading seconds field is read too, because that is the one
 * way a schedule fires more than once a minute — and such a schedule needs the user's yes
 * (`frequent`). croner does the calendar arithmetic; this file only words its answers.
 */

/** A cron expression that parsed. */
export interface ParsedCron {
  expr: string
  /** Fires more than once in some minute (a seconds field that is not one value). */
  frequent: boolean
  /** The first fire time strictly after `from` (ms), or undefined when it never matches again. */
  next(from: number): number | undefined
  /** Every fire time in (from, to], at most `limit` of them. */
  between(from: number, to: number, limit: number): number[]
}

/**
 * croner, imported at the first expression read (a schedule opened, CronCreate called): a run
 * that schedules nothing (`sous -p`) does not resolve and compile it (~6 ms of a cold start).
 */
let croner: Promise<typeof Croner> | undefined

/** Reads an expression, or says why it cannot be used (Claude Code's wording where it has one). */
export async function parseCron(raw: string): Promise<{ ok: true; cron: ParsedCron } | { ok: false; reason: string }> {
  const expr = raw.trim().replace(/\s+/g, ' ')
  const fields = expr === '' ? 0 : expr.split(' ').length
  if (fields !== 5 && fields !== 6) return { ok: false, reason: `Invalid cron expression '${raw}'. Expected 5 fields: M H DoM Mon DoW.` }
  const { Cron } = await (croner ??= import('croner'))
  let pattern: Croner.Cron
  try {
    pattern = new Cron(expr, { paused: true, mode: fields === 6 ? '6-part' : '5-part' })
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error)
    return { ok: false, reason: `Invalid cron expression '${raw}': ${why}.` }
  }
  const next = (from: number): number | undefined => pattern.nextRun(new Date(from))?.getTime()
  const first = next(Date.now())
  if (first === undefined || first - Date.now() > 366 * 86_400_000) return { ok: false, reason: `Cron expression '${raw}' does not match any calendar date in the next year.` }
  const frequent = fields === 6 && !/^\d+$/.test(expr.split(' ')[0]!)
  return {
    ok: true,
    cron: {
      expr,
      frequent,
      next,
      between(from, to, limit) {
        const out: number[] = []
        for (let at = next(from); at !== undefined && at <= to && out.length < limit; at = next(at)) out.push(at)
        return out
      },
    },
  }
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const two = (n: string): string => n.padStart(2, '0')

/** The schedule in words for the common shapes; the expression itself for the rest. */
export function humanSchedule(expr: string): string {
  const parts = expr.trim().split(/\s+/)
  if (parts.length === 6) {
    const step = /^\*\/(\d+)$/.exec(parts[0]!)
    if (parts.slice(1).every((part) => part === '*')) return parts[0] === '*' ? 'Every second' : step ? `Every ${step[1]} seconds` : expr
    return expr
  }
  const [minute, hour, dom, month, dow] = parts as [string, string, string, string, string]
  const everyDay = dom === '*' && month === '*'
  const num = /^\d+$/
  const step = /^\*\/(\d+)$/
  if (hour === '*' && everyDay && dow === '*') {
    if (minute === '*') return 'Every minute'
    const every = step.exec(minute)
    if (every) return every[1] === '1' ? 'Every minute' : `Every ${every[1]} minutes`
    if (num.test(minute)) return `Every hour at :${two(minute)}`
  }
  if (minute === '0' && step.test(hour) && everyDay && dow === '*') return `Every ${step.exec(hour)![1]} hours`
  if (!num.test(minute) || !num.test(hour)) return expr
  const time = `${two(hour)}:${two(minute)}`
  if (everyDay && dow === '*') return `Every day at ${time}`
  if (everyDay && dow === '1-5') return `Weekdays at ${time}`
  if (everyDay && num.test(dow)) return `Every ${DAYS[Number(dow) % 7]} at ${time}`
  if (num.test(dom) && num.test(month) && dow === '*') return `${MONTHS[Number(month) - 1] ?? month} ${dom} at ${time}`
  return expr
}
