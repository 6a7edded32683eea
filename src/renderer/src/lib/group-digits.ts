/**
 * A count with its thousands grouped as in English (`12,345`), the way `toLocaleString('en-US')`
 * writes it, for the counts the window shows as it starts (the status bar, the turn footers).
 * Not `toLocaleString` itself: the first number a page formats sets up ICU's number formatter,
 * 15–40 ms in one task on this machine (issue 30: no long task during start), and nothing else
 * the window does at start needs ICU. Whole numbers only; anything else goes to
 * `toLocaleString('en-US')`, which rounds fractions as the figures always were.
 */
export function groupDigits(count: number): string {
  if (!Number.isSafeInteger(count) || Object.is(count, -0)) return count.toLocaleString('en-US')
  const digits = String(Math.abs(count))
  let grouped = digits.slice(0, digits.length % 3 || 3)
  for (let index = grouped.length; index < digits.length; index += 3) grouped += `,${digits.slice(index, index + 3)}`
  return count < 0 ? `-${grouped}` : grouped
}
