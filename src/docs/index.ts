/**
 * The reference page served at `GET {basePath}/docs`.
 *
 * @example
 * import { renderReferencePage } from './docs/index.js'
 */
export { escapeHtml, renderReferencePage, type ReferenceDocument, type ReferencePage } from './render.js'
export { exampleOf } from './examples.js'
