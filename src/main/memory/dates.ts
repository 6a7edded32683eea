/**
 * Project memories keep absolute dates: "the freeze starts Thursday" means nothing a month later.
 * When the agent writes one, relative dates are turned into dates, using the session's day.
 * Only unambiguous English phrases are converted; anything else is left as written.
 */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

/** Replaces relative date phrases in `text` with ISO dates (`YYYY-MM-DD`) counted from `today`. */
export function absoluteDates(text: string, today: Date): string {
  const day = (offset: number) => iso(addDays(today, offset))
  const weekday = (name: string, which: 'next' | 'last' | 'this' | 'on') => {
    const target = WEEKDAYS.indexOf(name.toLowerCase())
    const current = today.getDay()
    let offset = (target - current + 7) % 7
    if (which === 'last') offset = offset === 0 ? -7 : offset - 7
    else if (which === 'next') offset = offset === 0 ? 7 : offset
    return `${capitalize(name)} ${day(offset)}`
  }
  return text
    .replace(/\b(in|within) (\d{1,3}) (day|week)s?\b/gi, (_m, _in: string, count: string, unit: string) => `by ${day(Number(count) * (unit.toLowerCase() === 'week' ? 7 : 1))}`)
    .replace(/\b(\d{1,3}) (day|week)s? ago\b/gi, (_m, count: string, unit: string) => `on ${day(-Number(count) * (unit.toLowerCase() === 'week' ? 7 : 1))}`)
    .replace(/\b(next|last|this|on) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/gi, (_m, which: string, name: string) => {
      const prefix = which.toLowerCase() === 'on' ? 'on ' : ''
      return `${prefix}${weekday(name, which.toLowerCase() as 'next' | 'last' | 'this' | 'on')}`
    })
    .replace(/\b(next|last) week\b/gi, (_m, which: string) => `the week of ${day(mondayOffset(today) + (which.toLowerCase() === 'next' ? 7 : -7))}`)
    .replace(/\bthis week\b/gi, () => `the week of ${day(mondayOffset(today))}`)
    .replace(/\b(the )?day after tomorrow\b/gi, () => day(2))
    .replace(/\btomorrow\b/gi, () => day(1))
    .replace(/\byesterday\b/gi, () => day(-1))
    .replace(/\b(today|tonight)\b/gi, () => day(0))
}

function mondayOffset(today: Date): number {
  return -((today.getDay() + 6) % 7)
}

function addDays(date: Date, days: number): Date {
  const copy = new Date(date.getFullYear(), date.getMonth(), date.getDate())
  copy.setDate(copy.getDate() + days)
  return copy
}

function iso(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()
}
