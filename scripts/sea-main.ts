// Entry of the single executable (scripts/build-sea.mjs): what bin/billing does for the
// package, without a loader, as the whole program is one script compiled into the binary.
import { main } from '../src/cli.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
