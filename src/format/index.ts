// The output contract the commands use.
export { type ChalkInstance, shouldColor, statusStyle } from './color.js';
export { COLUMNS, type Column, pluralOf, type ResourceName, textColumn } from './columns.js';
export { formatError, redact } from './errors.js';
export { defaultFormat, isOutputFormat, OUTPUT_FORMATS, type Output, type OutputFormat } from './formats.js';
export { formatAmount } from './text.js';
export { writeList, writeOne } from './write.js';
