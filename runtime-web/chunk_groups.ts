/**
 * How the form route's code is grouped into chunks, shared by the app's build (vite.config.ts) and the
 * form benchmark's pages (tests/bench/form-harness), so the benchmark loads the route as the app does.
 */

/**
 * The contract's modules the form route needs, as one chunk. Left to itself the bundler splits them
 * by which lazy chunks (action engine, table, viewers) also use them: a dozen small chunks, ~4 kB of
 * import/export overhead on the route. The modules only lazy code uses stay out (they would pull
 * their dependencies, the script parser and libphonenumber, into the route); the bundle benchmark
 * shows it when a new one should join this list.
 */
const LAZY_CONTRACT =
  /[\\/](evaluate|graph|translations|actions|typings|definition|validate-config|json-schema)\.ts$|[\\/](importers|process)[\\/]|[\\/]rules[\\/](password|table|roles|phone|people)\.ts$/
const contractChunk = (id: string) =>
  /core[\\/]contract[\\/]src[\\/]/.test(id) && !LAZY_CONTRACT.test(id) ? 'contract' : null

/** The groups of rolldown's `output.codeSplitting`. */
export const FORM_ROUTE_GROUPS = [
  { name: contractChunk },
  // React and i18next as one chunk too: lazy chunks importing parts of them (react-dom's
  // flushSync, useTranslation) split those parts off the route otherwise.
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-i18next|i18next)[\\/]/ },
]
