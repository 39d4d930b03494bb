/** `npm run verify -- ticket|block …` (see commands.ts). */
import { main } from './commands.ts';

process.exitCode = await main(process.argv.slice(2));
