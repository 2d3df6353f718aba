/** Process entry of the `veracite` command (bin/veracite.js loads the compiled copy). */
import { main } from './main.js';

await main(process.argv);
