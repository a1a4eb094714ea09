import { builder } from './builder.js';
import './scalars.js';
import './status.js';
import './brc20.js';
import './transfers.js';
import './runes.js';
import './platform.js';
import './connections.js';
import './live.js';
import { withSourceMarks } from './source-marks.js';

/** Assembles the domain files into the schema; nothing else happens here. */
export const schema = withSourceMarks(builder.toSchema({ sortSchema: true }));
