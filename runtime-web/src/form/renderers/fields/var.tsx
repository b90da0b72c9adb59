/**
 * var (date, image, json, number, text, time): a process variable the form carries for scripts and
 * the server; never shown to users. fields.css also hides the frame around it, so a var placed in a
 * layout row leaves no empty cell.
 */
export function VarField() {
  return null
}
