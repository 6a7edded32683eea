/**
 * `/loop [interval] <prompt>`: Claude Code's way to repeat a prompt at an interval. The interval
 * (`30s`, `5m`, `2h`, `1d`; default 10m) becomes a cron expression here, and the model is asked to
 * schedule the prompt with CronCreate and run it once now — as Claude Code's /loop does. Pure.
 */

/** The default cadence when none is given (Claude Code's). */
export const DEFAULT_LOOP_INTERVAL = '10m'

const STEPS: Record<'m' | 'h' | 'd', readonly number[]> = {
  m: [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30],
  h: [1, 2, 3, 4, 6, 8, 12],
  d: [1, 2, 3, 5, 7, 10, 14],
}

/** An interval as a cron expression, rounded to one that divides its unit (`note` says so). */
export function intervalCron(interval: string): { cron: string; every: string; note?: string } | undefined {
  const match = /^(\d+)([smhd])$/.exec(interval)
  if (!match) return undefined
  let n = Number(match[1])
  let unit = match[2] as 's' | 'm' | 'h' | 'd'
  if (n <= 0) return undefined
  // Seconds: to the next whole minute (a cron fires at most once a minute without asking).
  if (unit === 's') [n, unit] = [Math.max(1, Math.ceil(n / 60)), 'm']
  if (unit === 'm' && n >= 60 && n % 60 === 0) [n, unit] = [n / 60, 'h']
  if (unit === 'h' && n >= 24 && n % 24 === 0) [n, unit] = [n / 24, 'd']
  const steps = STEPS[unit]
  const nearest = steps.reduce((best, step) => (Math.abs(step - n) < Math.abs(best - n) ? step : best), steps[0]!)
  const rounded = nearest !== n
  const cron = unit === 'm' ? (nearest === 1 ? '* * * * *' : `*/${nearest} * * * *`) : unit === 'h' ? (nearest === 1 ? '0 * * * *' : `0 */${nearest} * * *`) : nearest === 1 ? '0 0 * * *' : `0 0 */${nearest} * *`
  const every = `every ${nearest === 1 ? '' : `${nearest} `}${{ m: 'minute', h: 'hour', d: 'day' }[unit]}${nearest === 1 ? '' : 's'}`
  return { cron, every, ...(rounded && { note: `${interval} does not divide its unit evenly; rounded to ${every}.` }) }
}

/** What `/loop <args>` sends to the model, or what to tell the user instead. */
export function loopPrompt(args: string): { send: string } | { say: string } {
  const words = args.trim().split(/\s+/).filter(Boolean)
  const first = words[0] ?? ''
  const hasInterval = /^\d+[smhd]$/.test(first)
  const prompt = (hasInterval ? words.slice(1) : words).join(' ')
  if (!prompt) return { say: 'Usage: /loop [interval] <prompt>: use an interval (30s, 5m, 2h, 1d; default 10m), e.g. /loop 5m check the deploy.' }
  const schedule = intervalCron(hasInterval ? first : DEFAULT_LOOP_INTERVAL)
  if (!schedule) return { say: `${first} is not an interval Sous can repeat at: use a whole number of s, m, h or d (e.g. 5m).` }
  return {
    send: [
      '# /loop — schedule a recurring prompt',
      '',
      `1. Call CronCreate with: \`cron\`: "${schedule.cron}", \`prompt\`: the prompt below, verbatim, \`recurring\`: true.`,
      `2. Briefly confirm: what's scheduled, the cron expression, the cadence (${schedule.every}), that recurring tasks auto-expire after 7 days, and that the user can cancel sooner with CronDelete (include the job ID).${schedule.note ? ` Tell the user: ${schedule.note}` : ''}`,
      "3. Then immediately execute the prompt now — don't wait for the first cron fire.",
      '',
      `Prompt: ${prompt}`,
    ].join('\n'),
  }
}
