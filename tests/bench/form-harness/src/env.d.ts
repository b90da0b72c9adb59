/** The form, given by the bench through Vite's `define` (see vite.config.ts). */
declare const __BENCH_SURVEY__: Record<string, unknown>
declare const __BENCH_CONFIG__: unknown
/** Its first evaluation, as the server sends it with the form's info. */
declare const __BENCH_INITIAL__: import('@tramita/contract').InitialState
/** Page 1's question names, for the floor page (src/floor.ts). */
declare const __BENCH_FLOOR__: { shown: string[]; driver: string; dependents: string[]; shownAtLoad: boolean }
