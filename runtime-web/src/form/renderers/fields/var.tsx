/**
 * var (date, image, json, number, text, time): a process variable the form carries for scripts and
 * the server; never shown to users. ItemView skips var fields before drawing a cell, so this renderer
 * only keeps the registry complete.
 */
export function VarField() {
  return null
}
