// The bounds of a fixture (docs/decisions.md, "Fixture limits"), apart from its parser (js-yaml)
// so that the emulator's server reads the size its control API takes without loading it.

export const FIXTURE_LIMITS = {
  /**
   * The file's size, and the fixture's written out as JSON: the CLI checks both before it
   * sends it, and the emulator's control API reads a body up to this size (src/emulator/http).
   */
  bytes: 10 * 1024 * 1024,
  /** YAML aliases (`*name`) in the file. */
  aliases: 1_000,
  /** Nesting of mappings and lists. */
  depth: 64,
  /** Values (scalars, mappings and lists) once the aliases are written out. */
  values: 1_000_000,
} as const;
