import db from '@adonisjs/lucid/services/db'
import { isUniqueViolation, type PluginUsage } from '@tramita/plugin-api'

const METRIC = /^[a-z][a-z0-9_.-]{0,59}$/

/** Billable uses, once per key: the unique (plugin, metric, key) makes a second record a no-op. */
export function pluginUsage(pluginId: string): PluginUsage {
  const metricOf = (metric: string) => {
    const name = metric.startsWith(`${pluginId}.`) ? metric.slice(pluginId.length + 1) : metric
    if (!METRIC.test(name)) throw new Error(`plugin "${pluginId}": invalid usage metric "${metric.slice(0, 60)}"`)
    return name
  }
  return {
    async record(metric, key, amount = 1, scope) {
      if (typeof key !== 'string' || key === '' || key.length > 191) {
        throw new Error(`plugin "${pluginId}": a usage key is 1 to 191 characters`)
      }
      if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`plugin "${pluginId}": invalid usage amount`)
      const row = {
        plugin: pluginId,
        metric: metricOf(metric),
        key,
        amount,
        user_id: scope?.userId ?? null,
        created_at: new Date(),
      }
      try {
        await db.insertQuery().table('usage_events').insert(row)
        return true
      } catch (error) {
        // The unique key says it was counted already (a job run twice); anything else is a fault.
        if (isUniqueViolation(error)) return false
        throw error
      }
    },
    async total(metric, since) {
      const query = db.from('usage_events').where('plugin', pluginId).where('metric', metricOf(metric))
      if (since) query.where('created_at', '>=', since)
      const row = await query.sum('amount as total').first()
      return Number(row?.total ?? 0)
    },
  }
}
