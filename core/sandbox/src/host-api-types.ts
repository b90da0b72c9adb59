/**
 * TypeScript declarations of the host API every script sees (README: "The script language"), for
 * editors that type-check scripts (the designer's Monaco). `FieldName` is declared by whoever
 * embeds these: the names of the form's fields. A test keeps the keys equal to HOST_API.
 */
export const HOST_API_TYPINGS: Readonly<Record<string, string>> = {
  value:
    '/** The value of a field or variable by name (for names that are not identifiers). */\ndeclare function value(name: FieldName | string): unknown',
  setValue:
    "/** Sets a field's value once the script ends. */\ndeclare function setValue(name: FieldName, value: unknown): void",
  setState:
    "/** Changes how a field is shown once the script ends. */\ndeclare function setState(name: FieldName, state: { natural?: 'enabled' | 'disabled' | 'readonly'; see?: boolean; show?: boolean; required?: boolean }): void",
  setOptions:
    '/** Replaces the options of a choice field. */\ndeclare function setOptions(name: FieldName, options: unknown): void',
  setStyle:
    "/** Changes a field's style. */\ndeclare function setStyle(name: FieldName, style: Record<string, unknown>): void",
  now: "/** The host's clock in ms since 1970, fixed for the call. */\ndeclare function now(): number",
  formatNumber:
    "/** A number with grouping and `decimals` digits, in `locale` (default 'es-CO'). */\ndeclare function formatNumber(n: number, decimals?: number, locale?: string): string",
  formatMoney:
    "/** An amount of money (default 'es-CO', 'COP'). */\ndeclare function formatMoney(n: number, locale?: string, currency?: string): string",
  formatDate:
    "/** A date (ms or text) by pattern: YYYY YY MM M DD D HH H hh h mm m ss s SSS A a, [literal]; default 'YYYY/MM/DD HH:mm:ss'. */\ndeclare function formatDate(value: number | string, pattern?: string, timeZone?: string): string",
}
