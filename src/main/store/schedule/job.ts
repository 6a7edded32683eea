/** One scheduled prompt (Claude Code's fields, plus when it last fired). */
export interface ScheduledJob {
  id: string
  cron: string
  prompt: string
  recurring: boolean
  durable: boolean
  createdAt: number
  lastFiredAt?: number
}
