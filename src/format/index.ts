// The output contract the commands use.
export { type ChalkInstance, shouldColor, statusStyle } from './color.js';
export { COLUMNS, type Column, pluralOf, type ResourceName, textColumn } from './columns.js';
export type { Columns, Data, Records, View, Views } from './data.js';
export { formatError, redact } from './errors.js';
export {
  defaultFormat,
  FORMATS,
  isOutputFormat,
  OUTPUT_FORMATS,
  type Output,
  type OutputFormat,
  traitsOf,
} from './formats.js';
export { formatAmount } from './text.js';
export { write, writeCounted, writeList, writeOne } from './write.js';
