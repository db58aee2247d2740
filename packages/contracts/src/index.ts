// One namespace per proto folder and the map of every gRPC service (`grpcServices`), both written into src/gen
// from proto/ at build time (scripts/generate-index.js), never committed: a new proto folder needs no edit here.
import path from 'node:path';

export * from './gen/index';

/** The .proto files of every service (copied into dist/ at build time), for gRPC reflection. */
export const PROTO_DIR = path.join(__dirname, 'proto');
